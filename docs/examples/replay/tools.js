// Tool stubs for replays of multiply.langfuse.json: a changed call to "python" runs this instead of
// reusing the recorded result. Sandboxed like a pipeline definition.
export default {
  python: (code) => {
    const m = /print\((\d+) \* (\d+)\)/.exec(code);
    return 'exitcode: 0 (execution succeeded)\nCode output: ' + (m ? Number(m[1]) * Number(m[2]) : 'error');
  },
};
