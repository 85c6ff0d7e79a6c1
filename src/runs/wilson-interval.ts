// The interval moved to the engine's statistics so engine code can use it too; runs keep this path.
export { wilsonInterval } from '../engine/stats/wilson-interval.ts';
