import type { HLJSApi, LanguageFn } from 'highlight.js';
import { nextTask } from '../idle';

type LanguageModule = Promise<{ default: LanguageFn }>;

/** The languages people paste most, each its own small chunk: a page loads only those its code blocks use. */
const LANGUAGES: Record<string, () => LanguageModule> = {
  javascript: () => import('highlight.js/lib/languages/javascript'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  python: () => import('highlight.js/lib/languages/python'),
  bash: () => import('highlight.js/lib/languages/bash'),
  json: () => import('highlight.js/lib/languages/json'),
  css: () => import('highlight.js/lib/languages/css'),
  xml: () => import('highlight.js/lib/languages/xml'),
  sql: () => import('highlight.js/lib/languages/sql'),
  go: () => import('highlight.js/lib/languages/go'),
  rust: () => import('highlight.js/lib/languages/rust'),
  java: () => import('highlight.js/lib/languages/java'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
};

const ALIASES: Record<string, string> = { js: 'javascript', jsx: 'javascript', ts: 'typescript', tsx: 'typescript', sh: 'bash', shell: 'bash', zsh: 'bash', html: 'xml', svg: 'xml', py: 'python', yml: 'yaml' };

let core: Promise<HLJSApi> | undefined;
const registered = new Map<string, Promise<void>>();

/**
 * highlight.js with `name` registered (once); undefined for a language it is not given, or when its code could not
 * be loaded (offline, a new version deployed meanwhile): the block then stays plain text, and the next rendering
 * tries again.
 */
async function highlighterFor(name: string): Promise<HLJSApi | undefined> {
  const load = LANGUAGES[name];
  if (!load) return undefined;
  const loadingCore = (core ??= import('highlight.js/lib/core').then((module) => module.default));
  let registering = registered.get(name);
  if (!registering) {
    registering = Promise.all([loadingCore, load()]).then(([hljs, language]) => {
      hljs.registerLanguage(name, language.default);
      // highlightElement reads the block's own class (`language-js`): its aliases must be known too.
      hljs.registerAliases(
        Object.keys(ALIASES).filter((alias) => ALIASES[alias] === name),
        { languageName: name },
      );
    });
    registered.set(name, registering);
  }
  try {
    await registering;
    return await loadingCore;
  } catch {
    if (core === loadingCore) core = undefined;
    if (registered.get(name) === registering) registered.delete(name);
    return undefined;
  }
}

/** Colours the fenced code blocks inside an element, one block per task, so a long page stays responsive. */
export async function colourBlocks(root: HTMLElement) {
  // Every language starts loading at once; the blocks are coloured in order.
  const blocks = [...root.querySelectorAll<HTMLElement>('pre code[class*="language-"]')].map((block) => {
    const language = /language-([\w-]+)/.exec(block.className)?.[1]?.toLowerCase() ?? '';
    return { block, highlighter: highlighterFor(ALIASES[language] ?? language) };
  });
  for (const { block, highlighter } of blocks) {
    const hljs = await highlighter;
    if (!root.isConnected) return;
    if (hljs && !block.dataset.highlighted) hljs.highlightElement(block);
    await nextTask();
  }
}
