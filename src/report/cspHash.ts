import { base64Encode } from './base64.ts';
import { sha256 } from '../engine/sha256.ts';
import { utf8Encode } from './utf8.ts';

/**
 * The CSP hash source for an inline `<script>` or `<style>` whose text content is exactly `text`:
 * `'sha256-' + base64(SHA-256(UTF-8 bytes))` (CSP Level 3, "hash-source"; the browser hashes the
 * element's text as it appears between the tags, so the caller must embed `text` unchanged).
 */
export function cspHashSource(text: string): string {
  return `'sha256-${base64Encode(sha256(utf8Encode(text)))}'`;
}
