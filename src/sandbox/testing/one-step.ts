/**
 * Source of a minimal definition whose single step "probe" (inputs "question" and "doc") runs `runBody`
 * as its function body, with `top` placed before the export. Escape and error tests put the
 * attempt in the body and read the case's `error`.
 */
export function oneStepSource(runBody: string, top = ''): string {
  return `${top}
export default {
  name: 'probe-pipeline',
  steps: [
    { name: 'probe', inputs: ['question', 'doc'], cost: 1,
      run: (inputs, noise) => { ${runBody} },
      fixes: [{ name: 'noop', cost: 1, run: () => 'fixed' }] },
  ],
  metric: (outputs) => (outputs.probe === 'fixed' ? 1 : 0),
};
`;
}
