/**
 * Profile one replay-scaling size (bench/README.md, "Replay scaling and why"): a runtape log of N
 * turns replayed with one player on the Node pool against the instant fake endpoint, printing the
 * wall and CPU time of all processes and of this one (the host, the endpoint; the rest is the pool's
 * worker process). Under `node --cpu-prof` every thread (the pool's
 * worker too) writes its own profile:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-replay.ts [TURNS=1000]
 *   npx tsx bench/profile-summary.ts /tmp/prof/<file>.cpuprofile
 */
import { FULL_SIZES } from './lib/sizes.ts';
import { replayScalingWorkload } from './workloads/replay-scaling.ts';

const turns = Number(process.argv[2] ?? 1000);
const main0 = process.cpuUsage();
const rows = await replayScalingWorkload({ ...FULL_SIZES, replayScalingTurns: [turns] }, (line) => console.log(line));
const main = process.cpuUsage(main0);
for (const r of rows) console.log(JSON.stringify({ wallMs: Math.round(r.wallMs), cpuMs: Math.round(r.cpuMs), thisProcessCpuMs: Math.round((main.user + main.system) / 1000), ...r.detail }));
