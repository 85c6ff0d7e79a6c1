/** A study's free tags (docs/trends.md): `prod`, or `key=value` such as `model=gpt-4.1`. */

/** A tag's key (`model` of `model=gpt-4.1`, the whole tag when it has no `=`). */
export function tagKey(tag: string): string {
  const at = tag.indexOf('=');
  return at < 0 ? tag : tag.slice(0, at);
}

/** The value of tag `key=value` among `tags`, '' for a bare tag `key`, or undefined when absent. */
export function tagValue(tags: readonly string[], key: string): string | undefined {
  for (const tag of tags) {
    if (tagKey(tag) !== key) continue;
    return tag.length === key.length ? '' : tag.slice(key.length + 1);
  }
  return undefined;
}
