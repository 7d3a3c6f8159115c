import { randomUUID } from 'node:crypto';
import {
  McpServer,
  acceptedContent,
  inputRequired,
  inputResponse,
} from '@modelcontextprotocol/server';
import type { RequestStateCodec } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** What the signed `requestState` of `deploy_service` carries between rounds. */
export interface DeployState {
  step: 'plan' | 'confirm';
  service: string;
  plan?: DeployPlan;
}

/** The deployment the person chose in the first round. */
export interface DeployPlan {
  environment: string;
  region: string;
  replicas: number;
  strategy: string;
  notify: string[];
  version: string;
}

/** Round one, question one: where the service goes. */
export const targetSchema = {
  type: 'object' as const,
  properties: {
    environment: {
      type: 'string' as const,
      title: 'Environment',
      oneOf: [
        { const: 'staging', title: 'Staging' },
        { const: 'production', title: 'Production' },
      ],
      default: 'staging',
    },
    region: {
      type: 'string' as const,
      title: 'Region',
      enum: ['eu-west-1', 'us-east-1', 'ap-southeast-2'],
    },
    replicas: { type: 'integer' as const, title: 'Replicas', minimum: 1, maximum: 20, default: 2 },
  },
  required: ['environment', 'region', 'replicas'],
};

/** Round one, question two: how the rollout goes. */
export const rolloutSchema = {
  type: 'object' as const,
  properties: {
    version: {
      type: 'string' as const,
      title: 'Version',
      minLength: 1,
      maxLength: 32,
      default: '1.4.2',
    },
    strategy: {
      type: 'string' as const,
      title: 'Strategy',
      enum: ['rolling', 'canary', 'blue-green'],
      enumNames: ['Rolling update', 'Canary (10% first)', 'Blue/green switch'],
      default: 'rolling',
    },
    notify: {
      type: 'array' as const,
      title: 'Notify',
      items: { type: 'string' as const, enum: ['#deploys', '#on-call', 'release-notes email'] },
      minItems: 0,
      default: ['#deploys'],
    },
  },
  required: ['version', 'strategy'],
};

/** Round two: the last word before anything changes. */
export const confirmSchema = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: 'Start the deployment', default: false },
    note: { type: 'string' as const, title: 'Change note', maxLength: 140 },
  },
  required: ['confirm'],
};

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const describePlan = (service: string, plan: DeployPlan) =>
  `${service} ${plan.version} to ${plan.environment} (${plan.region}, ${plan.replicas} replicas, ${plan.strategy})`;

/**
 * The modern-era (2026-07-28) Deploy Console on the v2 SDK. Its tools never push a request: they
 * return `input_required`, and the client retries with the answers. `deploy_service` asks two
 * questions in one round, then a confirmation in a second round; the plan rides in a signed
 * `requestState`, because it decides what gets deployed.
 */
export function createDeployConsole(codec: RequestStateCodec<DeployState>): McpServer {
  const server = new McpServer(
    { name: 'deploy-console', title: 'Deploy Console', version: '1.0.0' },
    { requestState: { verify: codec.verify } },
  );

  server.registerTool(
    'deploy_service',
    {
      title: 'Deploy a service',
      description: 'Plans and starts a deployment; asks where and how, then for confirmation.',
      inputSchema: z.object({ service: z.string().min(1).max(40).optional() }),
    },
    async ({ service: requested }, ctx) => {
      const state = ctx.mcpReq.requestState<DeployState>();
      const responses = ctx.mcpReq.inputResponses;
      const service = state?.service ?? requested ?? 'billing-api';

      if (state === undefined) {
        return inputRequired({
          inputRequests: {
            target: inputRequired.elicit({
              message: `Where should ${service} run?`,
              requestedSchema: targetSchema,
            }),
            rollout: inputRequired.elicit({
              message: `How should ${service} roll out?`,
              requestedSchema: rolloutSchema,
            }),
          },
          requestState: await codec.mint({ step: 'plan', service }),
        });
      }

      if (state.step === 'plan') {
        const target = acceptedContent(responses, 'target');
        const rollout = acceptedContent(responses, 'rollout');
        if (target === undefined || rollout === undefined)
          return text(`Deployment of ${service} was called off.`);
        const plan: DeployPlan = {
          environment: String(target.environment),
          region: String(target.region),
          replicas: Number(target.replicas),
          strategy: String(rollout.strategy),
          notify: Array.isArray(rollout.notify) ? rollout.notify.map(String) : [],
          version: String(rollout.version),
        };
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Deploy ${describePlan(service, plan)}?`,
              requestedSchema: confirmSchema,
            }),
          },
          requestState: await codec.mint({ step: 'confirm', service, plan }),
        });
      }

      const confirmation = inputResponse(responses, 'confirm');
      if (
        state.plan === undefined ||
        confirmation.kind !== 'elicit' ||
        confirmation.action !== 'accept'
      ) {
        return text(`Deployment of ${service} was called off.`);
      }
      if (confirmation.content?.confirm !== true)
        return text(`Deployment of ${service} was not confirmed.`);
      const release = `r-${randomUUID().slice(0, 6)}`;
      const notified =
        state.plan.notify.length > 0 ? ` Notified ${state.plan.notify.join(', ')}.` : '';
      return text(
        `Deployed ${describePlan(service, state.plan)} as release ${release}.${notified}`,
      );
    },
  );

  server.registerTool(
    'scale_service',
    {
      title: 'Scale a service',
      description: 'Changes the number of replicas of a running service.',
      inputSchema: z.object({ service: z.string().min(1).max(40).optional() }),
    },
    async ({ service: requested }, ctx) => {
      const service = requested ?? 'search-api';
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'replicas');
      if (answer.kind === 'missing') {
        return inputRequired({
          inputRequests: {
            replicas: inputRequired.elicit({
              message: `How many replicas should ${service} run?`,
              requestedSchema: {
                type: 'object',
                properties: {
                  replicas: {
                    type: 'integer',
                    title: 'Replicas',
                    minimum: 0,
                    maximum: 50,
                    default: 3,
                  },
                },
                required: ['replicas'],
              },
            }),
          },
        });
      }
      if (answer.kind !== 'elicit' || answer.action !== 'accept')
        return text(`${service} was left as it is.`);
      return text(`Scaled ${service} to ${Number(answer.content?.replicas)} replicas.`);
    },
  );

  return server;
}
