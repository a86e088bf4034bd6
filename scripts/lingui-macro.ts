import { transformAsync } from '@babel/core';
import type { Plugin } from 'vite';

/** Sources that import a Lingui macro; node_modules never do. */
const SOURCE = /\.[cm]?[jt]sx?(?:$|\?)/;
const MACRO_IMPORT = /@lingui\/(?:core|react)\/macro/;

/** Babel's parser plugins for a file: TypeScript stays in the output for Vite's own transform to strip. */
function parserPlugins(id: string): ('typescript' | 'jsx')[] {
  const path = id.replace(/\?.*$/, '');
  if (path.endsWith('.tsx')) return ['typescript', 'jsx'];
  if (/\.[cm]?ts$/.test(path)) return ['typescript'];
  return path.endsWith('.jsx') ? ['jsx'] : [];
}

/**
 * Compiles Lingui's macros (`t`, `<Trans>`, `msg`) with Babel before Vite's transform. Plugin-react 6 has no Babel
 * option, and the Babel plugin made for it (@rolldown/plugin-babel) needs Node 22, while the project runs on 20.
 */
export function linguiMacro(): Plugin {
  return {
    name: 'clipstash:lingui-macro',
    enforce: 'pre',
    transform: {
      filter: { id: { include: SOURCE, exclude: /[\\/]node_modules[\\/]/ }, code: MACRO_IMPORT },
      async handler(code, id) {
        const result = await transformAsync(code, {
          filename: id.replace(/\?.*$/, ''),
          babelrc: false,
          configFile: false,
          sourceMaps: true,
          parserOpts: { sourceType: 'module', plugins: parserPlugins(id) },
          plugins: ['@lingui/babel-plugin-lingui-macro'],
        });
        return result?.code ? { code: result.code, map: result.map } : null;
      },
    },
  };
}
