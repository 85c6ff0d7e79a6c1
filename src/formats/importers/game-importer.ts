import { GAME_FORMAT, parseGameFile } from '../game.ts';
import { opensWithJsonFormat, type Importer } from '../importer.ts';

/** `agentblame-game` files: coalition values computed elsewhere (docs/formats.md, "Game files"). */
export const gameImporter: Importer = {
  label: 'agentblame-game (JSON)',
  jsonFormat: GAME_FORMAT,
  sniff: (text) => opensWithJsonFormat(text, GAME_FORMAT),
  import: (text) => ({ kind: 'game', game: parseGameFile(text) }),
};
