/**
 * The package's two credential types: the name n8n stores with every workflow (never change it)
 * and the name users see, which every message that sends them to a credential uses.
 */
export const API_CREDENTIAL = { type: 'videoPlatformApi', displayName: 'Video Platform API' } as const;

export const WEBHOOK_CREDENTIAL = { type: 'videoPlatformWebhookApi', displayName: 'Video Platform Webhook API' } as const;

/** "… in the Video Platform API credential", the phrase messages end their advice with. */
export const IN_API_CREDENTIAL = `in the ${API_CREDENTIAL.displayName} credential`;
