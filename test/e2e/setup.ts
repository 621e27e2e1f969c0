// A real n8n takes seconds per command; its tests get minutes, not jest's 5 s default.
jest.setTimeout(180_000);
