// Fallback entry for the analysis worker when esbuild is unavailable to bundle it: load the
// TypeScript worker through tsx's loader (slower to start, about half a second per worker).
import { register } from 'tsx/esm/api';

register();
await import('./analysis.node.ts');
