// Fails when a package that `npm ci` installs here does not support this Node, or the lowest Node that
// package.json declares: what npm would print as EBADENGINE, read from package-lock.json in a fraction of a second.
import { readFileSync } from 'node:fs';
import semver from 'semver';

/** npm's os/cpu/libc lists: empty matches all, `!x` excludes x, any plain entries must include the value. */
function listAdmits(list, value) {
  if (!Array.isArray(list) || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  const wanted = list.filter((entry) => !entry.startsWith('!'));
  return wanted.length === 0 || wanted.includes(value);
}

/** Linux's C library as npm tells it apart (glibc or musl); undefined elsewhere, where npm ignores `libc`. */
const libc = process.platform === 'linux' ? (process.report.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl') : undefined;

/**
 * Whether npm must install the package on this machine and so warns when it cannot: an optional one (a native build
 * for another platform, say) that does not fit is left out without a word.
 */
function requiredHere(entry) {
  return (
    !entry.optional &&
    listAdmits(entry.os, process.platform) &&
    listAdmits(entry.cpu, process.arch) &&
    (libc === undefined || listAdmits(entry.libc, libc))
  );
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const declared = lock.packages[''].engines?.node;
const lowestDeclared = declared ? semver.minVersion(declared) : null;
const nodes = [process.version, lowestDeclared?.version].filter(Boolean);

const refusals = Object.entries(lock.packages).flatMap(([path, entry]) => {
  const wanted = entry.engines?.node;
  if (path === '' || typeof wanted !== 'string' || !requiredHere(entry)) return [];
  const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  return nodes
    .filter((node) => !semver.satisfies(node, wanted, { includePrerelease: true }))
    .map((node) => `${name}@${entry.version} wants Node ${wanted}, not ${node}`);
});

if (refusals.length > 0) {
  console.error(`Packages that do not support the declared engine (node ${declared}):\n  ${refusals.join('\n  ')}`);
  console.error('Pick versions that do (`npm view PKG@VERSION engines`), or an override in package.json.');
  process.exit(1);
}
console.log(`${Object.keys(lock.packages).length - 1} packages of package-lock.json support Node ${nodes.join(' and ')}`);
