import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiKeyProblem, normalizeApiKey } from '../shared/apiKey';
import { baseUrlProblem, normalizeBaseUrl } from '../shared/baseUrl';
import { API_CREDENTIAL } from '../shared/credentials';

export const CREDENTIAL_TYPE = API_CREDENTIAL.type;

export interface VideoPlatformCredentials {
	baseUrl?: string;
	apiKey?: string;
}

/** The credential as requests use it, once its rules have been checked. */
export interface CheckedCredential {
	baseUrl: string;
	apiKey: string;
}

/** Checks the credential before anything is sent; a problem fails the item that asked. */
export function checkCredential(
	node: INode,
	data: VideoPlatformCredentials,
	itemIndex: number,
): CheckedCredential {
	const apiKey = normalizeApiKey(data.apiKey);
	const problem = baseUrlProblem(data.baseUrl) ?? apiKeyProblem(apiKey);
	if (problem) {
		throw new NodeOperationError(node, `${problem.message} [item ${itemIndex}]`, {
			itemIndex,
			description: problem.description,
		});
	}
	return { baseUrl: normalizeBaseUrl(data.baseUrl), apiKey };
}
