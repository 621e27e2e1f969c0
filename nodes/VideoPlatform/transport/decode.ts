import type { NodeApiError } from 'n8n-workflow';

import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../shared/nesting';
import type { ReadAnswer } from './answer';
import type { FailedRequest } from './errors';
import { apiError, CHECK_BASE_URL } from './errors';
import { quotable } from './platformText';
import { mayHaveBeenProcessed } from './unanswered';

/** Enough to recognise a Content-Encoding; a longer one is not one the node could read anyway. */
const MAX_SHOWN_ENCODING = 60;

/** Whether a successful answer is a web page rather than what an API sends. */
export function isHtmlPage(contentType: unknown, text: string): boolean {
	if (typeof contentType === 'string' && /\btext\/html\b/i.test(contentType)) return true;
	return /^\s*(<!doctype html|<html[\s>])/i.test(text);
}

/** `application/json` and the `+json` types, such as `application/problem+json`. */
function isLabelledJson(contentType: unknown): boolean {
	return typeof contentType === 'string' && /^\s*application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType);
}

/** n8n's client drops the header of a coding it decoded, so any coding left (bar identity) was not. */
function undecodedEncoding(header: unknown): string | undefined {
	if (typeof header !== 'string') return undefined;
	const codings = header.split(',').map((coding) => coding.trim().toLowerCase());
	return codings.some((coding) => coding !== '' && coding !== 'identity') ? header : undefined;
}

export function htmlPageError(failed: FailedRequest, status: number): NodeApiError {
	return apiError(
		failed,
		String(status),
		`The Base URL seems to be a web page, not the platform's API: it answered HTTP ${status} with an HTML page`,
		`${mayHaveBeenProcessed(failed)} ${CHECK_BASE_URL} A sign-in page usually means a proxy or single sign-on stands in front of the API.`,
	);
}

function undecodableError(failed: FailedRequest, status: number, why: string): NodeApiError {
	return apiError(
		failed,
		String(status),
		`The platform's answer (HTTP ${status}) could not be decoded: ${why}`,
		mayHaveBeenProcessed(failed),
	);
}

function tooDeepError(failed: FailedRequest, status: number): NodeApiError {
	return apiError(
		failed,
		String(status),
		`The platform's answer (HTTP ${status}) is JSON nested more than ${MAX_NESTING_DEPTH} levels deep, more than the node accepts`,
		`${mayHaveBeenProcessed(failed)} An answer nested this deeply is not what the API sends: check that the Base URL is the platform's API.`,
	);
}

/**
 * What a 2xx answer gives the operation: parsed JSON, or else the text as it came (the API does
 * not state its success body). An answer that cannot be read fails the item rather than pass as
 * a success, and the platform may have acted on the request, so it is not sent again.
 *
 * A gzip body cut short inside intact HTTP framing is inflated by n8n's client without an error,
 * so it cannot be told from a whole one here: requests ask for no compression (Accept-Encoding:
 * identity); from a server that compresses anyway, only a cut answer labelled JSON is caught.
 */
export function decodeSuccess(
	answer: ReadAnswer,
	headers: Record<string, unknown> | undefined,
	failed: FailedRequest,
	status: number,
): unknown {
	const encoding = undecodedEncoding(headers?.['content-encoding']);
	if (encoding !== undefined) {
		const shown = quotable(encoding, failed.secret, MAX_SHOWN_ENCODING);
		throw undecodableError(failed, status, `its Content-Encoding is "${shown}", which the node cannot read`);
	}
	if (answer.outcome === 'undecodable') throw undecodableError(failed, status, 'its compressed body is damaged');
	const contentType = headers?.['content-type'];
	if (isHtmlPage(contentType, answer.text)) throw htmlPageError(failed, status);
	// JSON.parse rejects a UTF-8 byte-order mark, which some servers put first.
	const text = answer.text.replace(/^\uFEFF/, '');
	if (text.trim() === '') return '';
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		if (isLabelledJson(contentType)) {
			throw undecodableError(failed, status, 'it is labelled JSON but is not valid JSON');
		}
		return answer.text;
	}
	// n8n copies and saves items recursively: too deep an answer would crash it later, unexplained.
	if (nestsDeeperThan(parsed, MAX_NESTING_DEPTH)) throw tooDeepError(failed, status);
	return parsed;
}
