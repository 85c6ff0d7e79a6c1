/**
 * The recorded-run importers (docs/recorded-runs.md), in the order they are tried: the specific shapes
 * first, OpenInference before OTel GenAI (same envelope, narrower vocabulary).
 */
import type { Importer } from '../importer.ts';
import { agentOpsImporter } from './agentops.ts';
import { anyAgentImporter } from './any-agent.ts';
import { langfuseImporter } from './langfuse.ts';
import { langsmithImporter } from './langsmith.ts';
import { openinferenceImporter } from './openinference.ts';
import { otelGenaiImporter } from './otel-genai.ts';
import { predictionsImporter } from './predictions.ts';
import { spanAttributesImporter } from './span-attributes.ts';
import { runtapeImporter } from './runtape.ts';
import { vercelAiImporter } from './vercel-ai.ts';
import { whowhenImporter } from './whowhen.ts';

export const RECORDED_RUN_IMPORTERS: readonly Importer[] = [
  runtapeImporter,
  whowhenImporter,
  langfuseImporter,
  agentOpsImporter,
  langsmithImporter,
  anyAgentImporter,
  vercelAiImporter,
  openinferenceImporter,
  otelGenaiImporter,
  spanAttributesImporter,
  predictionsImporter,
];
