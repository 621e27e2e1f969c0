import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';

const { authenticate } = new VideoPlatformApi();

/** The request as n8n hands it on after the credential's `authenticate` function. */
export async function authenticated(
	credentials: object,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	if (typeof authenticate !== 'function') throw new Error('The credential authenticates with a function');
	return await authenticate(credentials as ICredentialDataDecryptedObject, requestOptions);
}
