/**
 * The replay rule as JavaScript text, the part of every generated replay definition that does
 * not depend on the run (docs/replay.md, "Replay rule"). It runs in the definition's sandbox like
 * any definition's code, so it is written for it: plain functions, no imports, no clock, no
 * global randomness (a resampled turn's seed comes from the step's addressed noise, through
 * `llm.chat`'s key). Each step replays the turns of its segment, in order, from the turns before
 * it (its inputs); a turn whose context is unchanged keeps its recorded output.
 */
export const REPLAY_RUNTIME = String.raw`// ---- The replay rule (the same in every replay definition) ----

/** A replayed turn: its text and tool calls, whether they differ from the record, and where they came from. */
function replayedAs(turn, text, toolCalls, via) {
  const out = { text, changed: text !== turn.output || JSON.stringify(toolCalls || []) !== JSON.stringify(turn.toolCalls || []), via };
  if (toolCalls && toolCalls.length > 0) out.toolCalls = toolCalls;
  return out;
}

function asRecorded(turn, via) {
  return replayedAs(turn, turn.output, turn.toolCalls, via);
}

/** A context built from the transcript: the agent's system line, then who said what (replayed where it was). */
function transcriptContext(run, turn, replayed) {
  const task = run.task !== '' ? ' The task: ' + run.task : '';
  const messages = [{ role: 'system', content: 'You are ' + turn.agent + ', one agent of a team working on a task together.' + task + ' Continue the conversation with your next message.' }];
  let changed = false;
  for (const entry of run.transcript.slice(0, turn.transcript)) {
    const now = entry.turn !== null ? replayed[entry.turn] : undefined;
    const text = now !== undefined ? now.text : entry.text;
    if (text !== entry.text) changed = true;
    messages.push({ role: entry.speaker === turn.agent ? 'assistant' : 'user', content: entry.speaker + ': ' + text });
  }
  if (messages.length === 1) messages.push({ role: 'user', content: 'Begin.' });
  return { messages, changed };
}

/** The turn's recorded context with every quoted earlier output replaced by its replayed output. */
function replayedContext(run, turn, replayed) {
  if (turn.transcript !== undefined) return transcriptContext(run, turn, replayed);
  const messages = turn.context.map((m) => ({ role: m.role, content: m.content }));
  let changed = false;
  // From the last span back, so the offsets of the spans before it stay right.
  for (let k = turn.substitutions.length - 1; k >= 0; k--) {
    const s = turn.substitutions[k];
    const now = replayed[s.from];
    if (now === undefined || now.text === run.turns[s.from].output) continue;
    const m = messages[s.message];
    m.content = m.content.slice(0, s.start) + now.text + m.content.slice(s.end);
    changed = true;
  }
  return { messages, changed };
}

function editContext(messages, fix) {
  if (fix.op === 'system+=') {
    if (messages.length > 0 && messages[0].role === 'system') return [{ role: 'system', content: messages[0].content + '\n' + fix.text }, ...messages.slice(1)];
    return [{ role: 'system', content: fix.text }, ...messages];
  }
  if (fix.op === 'drop') return messages.filter((_, i) => i !== fix.index);
  return messages.map((m, i) => (i === fix.index ? { role: m.role, content: fix.text } : m));
}

/** A model turn: kept as recorded unless its context changed or a fix asks for the model. */
function replayModelTurn(run, turn, replayed, fixes, llm) {
  const action = fixes.find((f) => f.kind === 'action');
  if (action) return replayedAs(turn, action.text, undefined, 'action');
  let { messages, changed } = replayedContext(run, turn, replayed);
  let send = changed;
  let model;
  let temperature = turn.temperature;
  let key = 'turn ' + turn.index;
  // Context edits name the recorded messages by index: drops and replacements first, from the last index down.
  const edits = fixes.filter((f) => f.kind === 'context');
  for (const f of edits.filter((f) => f.op !== 'system+=').sort((a, b) => b.index - a.index)) messages = editContext(messages, f);
  for (const f of edits.filter((f) => f.op === 'system+=')) messages = editContext(messages, f);
  if (edits.length > 0) send = true;
  for (const f of fixes) {
    if (f.kind === 'resample') {
      send = true;
      key += ' resample';
      if (turn.temperature === undefined) temperature = 1;
    } else if (f.kind === 'policy') {
      send = true;
      model = f.alias;
      if (f.temperature !== undefined) temperature = f.temperature;
    } else if (f.kind === 'repair') {
      send = true;
      const note = 'Your answer above may be wrong' + (f.hint ? ': ' + f.hint : '.') + ' Redo this step and give your corrected answer in full.';
      messages = [...messages, ...(turn.output !== '' ? [{ role: 'assistant', content: turn.output }] : []), { role: 'user', content: note }];
    }
  }
  if (!send) return asRecorded(turn, 'recorded');
  const args = { messages, key };
  if (model !== undefined) args.model = model;
  if (temperature !== undefined) args.temperature = temperature;
  if (turn.tools) args.tools = turn.tools;
  const answer = llm.chat(args);
  const calls = answer.toolCalls ? answer.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })) : undefined;
  return replayedAs(turn, answer.text, calls, 'model');
}

function toolArguments(text) {
  try {
    return JSON.parse(text);
  } catch (_) {
    return text;
  }
}

/** A tool turn: its recorded result while its call is unchanged; else the stub, or the record reused (and flagged). */
function replayToolTurn(run, turn, replayed, fixes) {
  const observation = fixes.find((f) => f.kind === 'observation');
  if (observation) return replayedAs(turn, observation.text, undefined, 'observation');
  const caller = turn.caller >= 0 ? replayed[turn.caller] : undefined;
  let call = turn.call;
  if (caller !== undefined && caller.changed) {
    if (turn.callIndex === null) call = { name: turn.call.name, arguments: caller.text };
    else call = caller.toolCalls && caller.toolCalls[turn.callIndex] ? caller.toolCalls[turn.callIndex] : null;
  }
  const unchanged = call !== null && call.name === turn.call.name && call.arguments === turn.call.arguments;
  const stubbed = fixes.some((f) => f.kind === 'stub');
  if (unchanged && !stubbed) return asRecorded(turn, 'recorded');
  if (call !== null && Object.prototype.hasOwnProperty.call(TOOLS, call.name)) {
    const result = TOOLS[call.name](toolArguments(call.arguments));
    return replayedAs(turn, typeof result === 'string' ? result : JSON.stringify(result), undefined, 'stub');
  }
  return asRecorded(turn, 'reused');
}

/** Step k: the turns of its segment, each fixed when its player is (this step's own player: fixed). */
function replaySegment(k, inputs, llm, fixed) {
  const run = inputs.recording;
  const replayed = {};
  const fixedPlayers = {};
  for (let j = 0; j < k; j++) {
    const earlier = inputs[STEPS[j]];
    Object.assign(replayed, earlier.turns);
    if (earlier.fixed === true) fixedPlayers[j] = true;
  }
  const own = {};
  for (const turn of run.turns) {
    if (turn.segment !== k) continue;
    const isFixed = turn.player === k ? fixed : fixedPlayers[turn.player] === true;
    // A contrast replay regenerates every model turn from a point on (a fresh sample each, by its world's seed).
    const regenerate = run.regenerateFrom !== undefined && turn.index >= run.regenerateFrom && turn.kind === 'model';
    const fixes = regenerate ? [{ kind: 'resample' }] : isFixed ? turn.fixes : [];
    const result = turn.kind === 'tool' ? replayToolTurn(run, turn, replayed, fixes) : replayModelTurn(run, turn, replayed, fixes, llm);
    replayed[turn.index] = result;
    own[turn.index] = result;
  }
  const output = { turns: own };
  if (run.interleaved) output.fixed = fixed;
  if (k === STEPS.length - 1 && OUTCOME.kind === 'judge') output.verdict = judge(run, replayed, llm);
  return output;
}

/** Every replayed turn, from the steps' outputs. */
function replayedTurns(outputs) {
  const replayed = {};
  for (const name of STEPS) Object.assign(replayed, outputs[name].turns);
  return replayed;
}

/** The final answer: the last model turn that says more than TERMINATE (what follows its last "FINAL ANSWER:", if it has one). */
function finalAnswer(run, replayed) {
  for (let i = run.turns.length - 1; i >= 0; i--) {
    const turn = run.turns[i];
    if (turn.kind !== 'model') continue;
    const text = replayed[i] !== undefined ? replayed[i].text : turn.output;
    if (text.trim() === '' || /^TERMINATE\.?$/i.test(text.trim())) continue;
    const marked = [...text.matchAll(/FINAL ANSWER:[ \t]*([^\n]*)/gi)];
    return marked.length > 0 ? marked[marked.length - 1][1].trim() : text;
  }
  return '';
}

/** Whether the answer contains the expected text, case and spacing aside, not as part of a longer word or number. */
function containsAnswer(answer, expected) {
  const norm = (s) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const a = norm(answer);
  const e = norm(expected);
  if (e === '') return false;
  const word = /[a-z0-9]/;
  for (let at = a.indexOf(e); at >= 0; at = a.indexOf(e, at + 1)) {
    const before = at > 0 ? a[at - 1] : '';
    const after = a[at + e.length] || '';
    if (!(word.test(e[0]) && word.test(before)) && !(word.test(e[e.length - 1]) && word.test(after))) return true;
  }
  return false;
}

function judge(run, replayed, llm) {
  return llm.choose({
    messages: [
      { role: 'system', content: 'You check whether an agent run reached a correct final answer. Rubric: ' + OUTCOME.rubric },
      { role: 'user', content: 'Task:\n' + run.task + '\n\nFinal answer:\n' + finalAnswer(run, replayed) },
    ],
    options: ['pass', 'fail'],
    key: 'judge',
  });
}

/** 1 when the replayed run succeeds, 0 when it fails (or the metric file's number). */
function outcome(outputs, run) {
  const replayed = replayedTurns(outputs);
  const final = finalAnswer(run, replayed);
  switch (OUTCOME.kind) {
    case 'expect':
      return containsAnswer(final, OUTCOME.text !== null ? OUTCOME.text : run.expected) ? 1 : 0;
    case 'expect-regex':
      return new RegExp(OUTCOME.source, OUTCOME.flags).test(final) ? 1 : 0;
    case 'judge':
      return outputs[STEPS[STEPS.length - 1]].verdict === 'pass' ? 1 : 0;
    default:
      return METRIC({ turns: run.turns.map((t) => ({ agent: t.agent, kind: t.kind, name: t.name, output: replayed[t.index] !== undefined ? replayed[t.index].text : t.output })), final });
  }
}
`;
