import './shared/supportedN8n';
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { EVENT_KINDS } from './platform';
import { WEBHOOK_CREDENTIAL } from './shared/credentials';
import { DELIVERY_INFO_KEY, DELIVERY_KEY_PATH, EDITOR_NAMES } from './shared/deliveryKey';
import { ACTION_NODE_TYPE } from './shared/nodeTypes';
import { ALL_DELIVERIES, AUTHENTICATION, OPTION_NAMES } from './trigger/choices';
import { secretCredentialProblem } from './trigger/secret';
import { handleDelivery } from './trigger/webhook';

// What the editor tells people: n8n 2.x says "Publish" where 1.x says "Activate", so each sentence
// names both. The spec does not say where the platform keeps its webhook settings, so none is named.
const PLATFORM_SETTINGS = "your video platform's webhook or integration settings";
const ACTIVATE = 'publish the workflow (n8n 1.x: activate it)';
const TEST_MODE =
	`<b>While you build the workflow</b>, use the Test URL: put it in ${PLATFORM_SETTINGS}, click Execute step here, and have the platform send a delivery. It shows up here in the editor. The Test URL works only while the editor is listening.`;

const options = '($parameter["options"] || {})';
const filterSet = `${options}.filterField && ${options}.filterValues`;

export class VideoPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Video Platform Trigger',
		name: 'videoPlatformTrigger',
		icon: { light: 'file:videoPlatform.svg', dark: 'file:videoPlatform.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves as 1 does. At 1.1 n8n evaluates no expression per delivery to read the body,
		// and leaves the bodies it does not parse to the node (trigger/body.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		// The line under the node: the event chosen, else the field filter when both of its options
		// are set (with one of them empty it filters nothing), else "All deliveries".
		subtitle:
			`={{$parameter["event"] !== ${JSON.stringify(ALL_DELIVERIES)} ? "On: " + $parameter["event"]` +
			` : ${filterSet} ? "When " + ${options}.filterField + " is " + ${options}.filterValues` +
			' : "All deliveries"}}',
		// The node creator lists the two nodes as one entry, "Video Platform", with this text, also
		// where a newcomer looks for Create a room: so it names both.
		description: 'Create rooms on your video platform, and start workflows when it sends a webhook delivery',
		defaults: { name: 'Video Platform Trigger' },
		triggerPanel: {
			header: 'Pull in a test delivery from your video platform',
			executionsHelp: {
				inactive: `${TEST_MODE}<br /><br /><b>To run the workflow on its own</b>, copy the Production URL into ${PLATFORM_SETTINGS}, then ${ACTIVATE}. Deliveries then start executions, listed in the executions list, not in the editor.`,
				active: `${TEST_MODE}<br /><br /><b>This workflow is published (n8n 1.x: active)</b>, so deliveries to the Production URL start executions. You find them in the <a data-key="executions">executions list</a>, not in the editor.`,
			},
			activationHint: {
				inactive: `When the Production URL is in ${PLATFORM_SETTINGS}, ${ACTIVATE}: then deliveries start the workflow without this button.`,
				active: 'Deliveries to the Production URL start executions too; those do not show up here.',
			},
		},
		eventTriggerDescription: 'Waiting for your video platform to send a delivery to the Test URL',
		activationMessage: `Deliveries your video platform sends to the Production URL now start this workflow. Check that the Production URL is in ${PLATFORM_SETTINGS}.`,
		// Shown in the editor while the condition holds; n8n versions without hints show nothing.
		hints: [
			{
				type: 'warning',
				message:
					"Authentication is None: anyone who knows this trigger's Production URL can start the workflow. If your video platform can send a header with a secret, choose Shared Secret Header.",
				displayCondition: '={{ ($parameter.authentication ?? "none") === "none" }}',
				whenToDisplay: 'always',
				location: 'ndv',
			},
		],
		// Read by n8n's AI Workflow Builder and its MCP node search (n8n 2.x); a literal, so that
		// n8n's lint rule no-builder-hint-leakage sees it.
		builderHint: {
			searchHint:
				`Starts a workflow for each webhook delivery (a real-time event) from the video platform. The platform has not published an API for registering webhooks, so the user copies the trigger's Production URL into the platform's webhook settings by hand. Each item has the payload's fields at the top level and the request's details under ${DELIVERY_INFO_KEY}.`,
			relatedNodes: [
				{
					nodeType: ACTION_NODE_TYPE,
					relationHint: `Put it right after this trigger with resource webhookDelivery, operation dropRedelivered: it drops a delivery the platform sends again, by the key in ${DELIVERY_KEY_PATH}`,
				},
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: WEBHOOK_CREDENTIAL.type,
				required: true,
				testedBy: 'videoPlatformWebhookApiTest',
				displayOptions: { show: { authentication: [AUTHENTICATION.secretHeader] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty, so that n8n answers with the node's own acknowledgement instead of its
				// default ("firstEntryJson"), which it would send as literal text.
				responseData: '',
				path: 'webhook',
			},
		],
		// Every field, in the editor's order.
		properties: [
			{
				// n8n 2.x says Publish where 1.x says Activate: a newcomer on 2.x finds no Activate.
				displayName: `The platform has not published an API for registering webhooks. Copy this node's Production URL (above, under Webhook URLs) into ${PLATFORM_SETTINGS}, then ${ACTIVATE}. Use the Test URL only while the editor is listening.`,
				name: 'registrationNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: `The platform may send the same delivery more than once, and this trigger starts the workflow each time. To let each delivery through once, add a Video Platform node right after this trigger with the action ${EDITOR_NAMES.dropRedeliveredAction}.`,
				name: 'duplicatesNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'None', value: AUTHENTICATION.none },
					{ name: 'Shared Secret Header', value: AUTHENTICATION.secretHeader },
				],
				default: 'none',
				description:
					'Whether deliveries must carry a shared secret in a header. The platform has not published a signature scheme.',
			},
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'All Deliveries', value: ALL_DELIVERIES }, ...EVENT_KINDS],
				default: ALL_DELIVERIES,
				description:
					`The platform has not published its event kinds yet, so every delivery starts the workflow. To start it for some deliveries only, use Add Option → ${OPTION_NAMES.filterField} and ${OPTION_NAMES.filterValues}.`,
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: OPTION_NAMES.deliveryIdField,
						name: 'deliveryIdField',
						type: 'string',
						default: '',
						placeholder: 'e.g. deliveryId',
						description:
							`The field of a delivery that says which delivery it is, such as deliveryId (for a field inside another, join the names with dots: data.deliveryId). A Video Platform node with the action ${EDITOR_NAMES.dropRedeliveredAction}, right after this trigger, lets each value through once (the trigger passes it on in ${DELIVERY_KEY_PATH}). Left empty, a delivery counts as sent before only when its content is exactly the same. A delivery without this field always goes through.`,
					},
					{
						displayName: OPTION_NAMES.filterField,
						name: 'filterField',
						type: 'string',
						default: '',
						placeholder: 'e.g. data.status',
						description:
							`A field of the delivery, such as status (for a field inside another, join the names with dots: data.status). Only deliveries where it has one of the values in ${OPTION_NAMES.filterValues} start the workflow; the platform is told the others arrived, and nothing else happens.`,
					},
					{
						displayName: OPTION_NAMES.filterValues,
						name: 'filterValues',
						type: 'string',
						default: '',
						placeholder: 'e.g. started, ended',
						description: `The values of ${OPTION_NAMES.filterField} that start the workflow, separated by commas`,
					},
				],
			},
		],
	};

	methods = {
		credentialTest: {
			/** Nothing on the platform can check the secret; this checks that it is usable. */
			async videoPlatformWebhookApiTest(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const { headerName, secret } = credential.data ?? {};
				const problem = secretCredentialProblem(headerName, secret);
				if (problem) return { status: 'Error', message: problem };
				return {
					status: 'OK',
					message: 'The secret is set. It is checked on each delivery; the platform cannot be asked.',
				};
			},
		},
	};

	/**
	 * The platform publishes no API for registering webhooks, so registration is manual and
	 * these hooks only report that: they call nothing.
	 */
	webhookMethods = {
		default: {
			async checkExists(): Promise<boolean> {
				return true;
			},
			async create(): Promise<boolean> {
				return true;
			},
			async delete(): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleDelivery.call(this);
	}
}
