/** The demo studies shipped in `public/demos/`: a trace if present, else the definition with its own cases. */
export interface Demo {
  id: string;
  title: string;
  blurb: string;
}

export const DEMOS: readonly Demo[] = [
  { id: 'refund-policy', title: 'Refund policy', blurb: 'Four steps, one failure: two fixes each suffice alone, two only help together.' },
  { id: 'refund-policy-b', title: 'Refund policy, mechanism B', blurb: 'The same pipeline with a reviewer that checks every claim: the writer stops mattering.' },
  { id: 'stochastic-rag', title: 'Stochastic RAG', blurb: '200 questions through four sampled steps; fixes only shift the odds.' },
  { id: 'eight-step-agent', title: 'Eight-step agent', blurb: 'A finance agent where a fix can make things worse (negative blame).' },
];

/** Fetches a demo from next to the build (relative, so it works from any sub-path). */
export async function fetchDemo(id: string): Promise<{ text: string; fileName: string }> {
  for (const fileName of [`${id}.trace.json`, `${id}.pipeline.js`]) {
    const response = await fetch(new URL(`demos/${fileName}`, document.baseURI), { credentials: 'same-origin' });
    if (response.ok) return { text: await response.text(), fileName };
  }
  throw new Error(`The demo "${id}" is missing from this build (looked for demos/${id}.trace.json and demos/${id}.pipeline.js).`);
}
