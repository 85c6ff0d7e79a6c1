/** The sandbox reports bad definitions with the engine's own error class, so callers catch one type. */
export { DefinitionError } from '../engine/errors.ts';
