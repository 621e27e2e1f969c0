import { NodeApiError } from 'n8n-workflow';

import type { FailedRequest } from '../../../../nodes/VideoPlatform/transport/messages';
import { requestError } from '../../../../nodes/VideoPlatform/transport/messages';
import { mayHaveActed, noAnswerOutcome } from '../../../../nodes/VideoPlatform/transport/outcome';
import { testNode } from '../../../helpers/executeContext';
import { failedCreateRoom as failed, MAY_HAVE_CREATED_ROOM as MAY_HAVE } from '../../../helpers/platformClient';

/** The error an item gets for a request without an HTTP answer. */
const noAnswerError = (failed: FailedRequest, error: unknown, deadlineMs: number) => requestError(noAnswerOutcome(error, deadlineMs), failed);

/** An error as n8n-core wraps what the HTTP layer threw, with the key in its request config. */
function wrapped(code: string) {
	const cause = Object.assign(new Error('boom'), {
		code,
		config: { headers: { Authorization: 'Bearer sk_live_secret' } },
	});
	return new NodeApiError(testNode, cause as never);
}

describe('a request without an HTTP answer', () => {
	it.each([
		['ECONNREFUSED', 'Cannot reach the base URL https://video.example.com: the connection was refused'],
		['ENOTFOUND', 'Cannot reach the base URL https://video.example.com: the host name was not found (DNS)'],
		['EAI_AGAIN', 'Cannot reach the base URL https://video.example.com: the host name could not be looked up (DNS)'],
	])('%p: nothing was sent, so check the Base URL', (code, message) => {
		const error = noAnswerError(failed, wrapped(code), 60_000);
		expect(error.message).toBe(`${message} [item 2]`);
		expect(error.description).toMatch(/^Nothing was sent\. Check the Base URL/);
		expect(error.httpCode).toBeNull();
		expect(JSON.stringify(error)).not.toContain('sk_live_secret');
	});

	it.each([
		['ECONNRESET', 'The connection to https://video.example.com broke before an answer came: the connection was reset'],
		['EPIPE', 'The connection to https://video.example.com broke before an answer came: the connection was closed'],
		['EWHATEVER', 'The connection to https://video.example.com broke before an answer came: network error EWHATEVER'],
		['ECONNABORTED', 'No complete answer from https://video.example.com within 60 s (timeout)'],
		['ETIMEDOUT', 'No complete answer from https://video.example.com within 60 s (timeout)'],
	])('%p: the request may have been processed', (code, message) => {
		const error = noAnswerError(failed, wrapped(code), 60_000);
		expect(error.message).toBe(`${message} [item 2]`);
		expect(error.description).toBe(MAY_HAVE);
		expect(JSON.stringify(error)).not.toContain('sk_live_secret');
	});
});

/** What Node reports for a failed TLS handshake: OpenSSL's reason in the code, or only in the message. */
function tlsFailure(code: string, reason: string) {
	const message = `write ${code} 80AC:error:0A00010B:SSL routines:ssl3_read_bytes:${reason}:ssl/record/rec_layer_s3.c:1601:`;
	return new NodeApiError(testNode, Object.assign(new Error(message), { code }) as never);
}

describe('a TLS handshake that failed: nothing was sent', () => {
	const cannotReach = 'Cannot reach the base URL https://video.example.com';

	it.each([
		['ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'],
		['EPROTO', 'wrong version number'],
	])('%p "wrong version number" asks whether the server speaks plain http://', (code, reason) => {
		const error = noAnswerError(failed, tlsFailure(code, reason), 60_000);
		expect(error.message).toBe(`${cannotReach}: the TLS handshake failed (wrong version number) [item 2]`);
		expect(error.description).toMatch(/^Nothing was sent\. Is the Base URL https:\/\/ for a server that speaks plain http:\/\/\?/);
		expect(error.httpCode).toBeNull();
	});

	it.each([
		['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'tlsv13 alert certificate required'],
		['EPROTO', 'tlsv13 alert certificate required'],
	])('%p "certificate required" says the node sends no client certificate', (code, reason) => {
		const error = noAnswerError(failed, tlsFailure(code, reason), 60_000);
		expect(error.message).toBe(
			`${cannotReach}: the server asks for a client certificate, which the node does not send [item 2]`,
		);
		expect(error.description).toMatch(/^Nothing was sent\./);
	});

	it.each([
		['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'sslv3 alert handshake failure'],
		['EPROTO', 'sslv3 alert handshake failure'],
		['EPROTO', 'ssl/tls alert handshake failure'],
	])('%p %p may mean a client certificate is required', (code, reason) => {
		const error = noAnswerError(failed, tlsFailure(code, reason), 60_000);
		expect(error.message).toBe(`${cannotReach}: the TLS handshake failed (${reason}) [item 2]`);
		expect(error.description).toMatch(/^Nothing was sent\. The server may ask for a client certificate/);
	});

	it.each([
		['ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'tlsv1 alert protocol version'],
		['ERR_SSL_UNSUPPORTED_PROTOCOL', 'unsupported protocol'],
		['ERR_SSL_NO_PROTOCOLS_AVAILABLE', 'no protocols available'],
		['ERR_SSL_TLSV1_ALERT_UNKNOWN_CA', 'tlsv1 alert unknown ca'],
		['ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE', 'sslv3 alert bad certificate'],
		['EPROTO', 'sslv3 alert bad certificate'],
	])('%p %p, which only a handshake gives, is a failed handshake too', (code, reason) => {
		const error = noAnswerError(failed, tlsFailure(code, reason), 60_000);
		expect(error.message).toBe(`${cannotReach}: the TLS handshake failed (${reason}) [item 2]`);
		expect(error.description).toMatch(/^Nothing was sent\. Check the Base URL/);
	});

	it('EPROTO without an OpenSSL reason is not taken for a handshake', () => {
		const error = noAnswerError(failed, wrapped('EPROTO'), 60_000);
		expect(error.message).toBe(
			'The connection to https://video.example.com broke before an answer came: network error EPROTO [item 2]',
		);
		expect(error.description).toBe(MAY_HAVE);
	});
});

describe('a TLS failure in the encrypted records, which can come after the request went: the room may exist', () => {
	const broke = 'The connection to https://video.example.com broke before an answer came: a TLS error';

	it.each([
		['ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC', 'decryption failed or bad record mac'],
		['EPROTO', 'decryption failed or bad record mac'],
		['ERR_SSL_SSLV3_ALERT_BAD_RECORD_MAC', 'sslv3 alert bad record mac'],
		['ERR_SSL_TLSV1_ALERT_RECORD_OVERFLOW', 'tlsv1 alert record overflow'],
		['ERR_SSL_RECORD_OVERFLOW', 'record overflow'],
		['ERR_SSL_BAD_DECRYPT', 'bad decrypt'],
		['ERR_SSL_PACKET_LENGTH_TOO_LONG', 'packet length too long'],
	])('%p %p', (code, reason) => {
		const error = noAnswerError(failed, tlsFailure(code, reason), 60_000);
		expect(error.message).toBe(`${broke} (${reason}) [item 2]`);
		expect(error.description).toBe(MAY_HAVE);
		expect(error.httpCode).toBeNull();
	});

	it('a TLS reason the node does not know is not taken for a handshake either', () => {
		const error = noAnswerError(failed, tlsFailure('ERR_SSL_SOMETHING_NEW_2', 'something new 2'), 60_000);
		expect(error.message).toBe(`${broke} (something new 2) [item 2]`);
		expect(error.description).toBe(MAY_HAVE);
	});
});

describe('mayHaveActed, which puts an item in a failed run\'s "may have created" list', () => {
	const errorStatus = (status: number) => mayHaveActed({ kind: 'error-status', status, body: '' });

	it('holds for exactly HTTP 500 and every server error above it', () => {
		expect([500, 501, 503, 599].map(errorStatus)).toEqual([true, true, true, true]);
	});

	it('does not hold for an HTTP 4xx answer: the platform refused the request', () => {
		expect([400, 422, 499].map(errorStatus)).toEqual([false, false, false]);
	});
});
