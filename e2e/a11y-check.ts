/**
 * A small axe-style audit run in the page: every button, input, select and textarea has an
 * accessible name, and visible text has WCAG AA contrast against its effective background
 * (4.5:1, 3:1 for large text). Returns the problems found, each naming the element.
 */
import type { Page } from '@playwright/test';

export async function auditPage(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0.1;
    };
    for (const el of document.querySelectorAll('button, input, select, textarea')) {
      if (!visible(el) && !(el instanceof HTMLInputElement && el.type === 'file')) continue;
      if (el instanceof HTMLInputElement && el.type === 'hidden') continue;
      const labelled =
        (el.getAttribute('aria-label') ?? '').trim() !== '' ||
        (el.getAttribute('aria-labelledby') ?? '') !== '' ||
        (el.textContent ?? '').trim() !== '' ||
        ((el as HTMLInputElement).labels?.length ?? 0) > 0 ||
        (el.getAttribute('title') ?? '') !== '';
      if (!labelled) problems.push(`no accessible name: ${describe(el)}`);
    }
    const parse = (c: string): [number, number, number, number] | null => {
      const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c);
      return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
    };
    const luminance = ([r, g, b]: number[]) => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element | null): number[] => {
      for (let node = el; node; node = node.parentElement) {
        const c = parse(getComputedStyle(node).backgroundColor);
        if (c && c[3] > 0.5) return c;
      }
      return parse(getComputedStyle(document.documentElement).backgroundColor) ?? [255, 255, 255, 1];
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || seen.has(el) || (node.textContent ?? '').trim() === '') continue;
      seen.add(el);
      if (!visible(el) || el.closest('svg, [role=tooltip], .cm-editor')) continue;
      const style = getComputedStyle(el);
      const fg = parse(style.color);
      if (!fg) continue;
      const bg = background(el);
      const a = luminance(fg);
      const b = luminance(bg);
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const disabled = el.closest('button:disabled, [aria-disabled=true], input:disabled, select:disabled');
      if (!disabled && ratio < (large ? 3 : 4.5)) problems.push(`contrast ${ratio.toFixed(2)}:1 for ${describe(el)} (${style.color} on rgb(${bg.slice(0, 3).join(', ')}))`);
    }
    return problems;
  });
}
