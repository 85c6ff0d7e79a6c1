/** The demo studies shipped in `public/demos/`: a trace if present, else the definition with its own cases. */
export interface Demo {
  id: string;
  title: string;
  blurb: string;
  /** Its steps call a model: its shipped responses are loaded into the page's response store. */
  responses?: boolean;
}

export const DEMOS: readonly Demo[] = [
  { id: 'refund-policy', title: 'Refund policy', blurb: 'Four steps, one failure: two fixes each suffice alone, two only help together.' },
  { id: 'refund-policy-b', title: 'Refund policy, mechanism B', blurb: 'The same pipeline with a reviewer that checks every claim: the writer stops mattering.' },
  { id: 'stochastic-rag', title: 'Stochastic RAG', blurb: '200 questions through four sampled steps; fixes only shift the odds.' },
  { id: 'eight-step-agent', title: 'Eight-step agent', blurb: 'A finance agent where a fix can make things worse (negative blame).' },
  { id: 'support-triage', title: 'Support triage (model steps)', blurb: 'Steps that call a model (llm.choose, llm.chat); its responses come from a small deterministic test model, shipped with the demo; Settings > Model runs it on a tiny model in this page, with no server.', responses: true },
  { id: 'order-desk', title: 'Order desk (any model)', blurb: 'Model steps scored on what any instruction-following model can be checked on (the order number quoted, the right team); shipped with the test model\'s responses, meant for your own endpoint or a model file in this page (Settings > Model).', responses: true },
];

/**
 * The shipped responses of a demo whose steps call a model (`<id>.responses.jsonl`), as cache
 * entries; lines that are not valid entries are skipped (the host checks every key again).
 */
export async function fetchDemoResponses(id: string): Promise<unknown[]> {
  const response = await fetch(new URL(`demos/${id}.responses.jsonl`, document.baseURI), { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The demo "${id}" is missing its responses (demos/${id}.responses.jsonl).`);
  return (await response.text()).split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown);
}

/** The files a demo may ship as, in the order they are looked for. */
function demoFileNames(id: string): string[] {
  return [`${id}.trace.json`, `${id}.pipeline.js`];
}

/** Whether a study opened from `fileName` is the shipped demo `id` (a stored session remembers its file). */
export function isDemoFile(id: string, fileName: string): boolean {
  return DEMOS.some((demo) => demo.id === id) && demoFileNames(id).includes(fileName);
}

/** Fetches a demo from next to the build (relative, so it works from any sub-path). */
export async function fetchDemo(id: string): Promise<{ text: string; fileName: string }> {
  for (const fileName of demoFileNames(id)) {
    const response = await fetch(new URL(`demos/${fileName}`, document.baseURI), { credentials: 'same-origin' });
    if (response.ok) return { text: await response.text(), fileName };
  }
  throw new Error(`The demo "${id}" is missing from this build (looked for demos/${id}.trace.json and demos/${id}.pipeline.js).`);
}
