/** The bench's tree: folder and file names from a fixed seed, Latin and Chinese mixed, the same on every run. */

const LATIN = ['report', 'invoice', 'photo', 'budget', 'draft', 'notes', 'summary', 'meeting', 'design', 'backup', 'contract', 'schedule', 'travel', 'receipt', 'archive', 'scan'];
const CHINESE = ['报告', '发票', '照片', '预算', '草稿', '笔记', '总结', '会议', '设计', '备份', '合同', '计划', '旅行', '收据', '年度', '项目'];
const EXTENSIONS = ['.pdf', '.docx', '.jpg', '.png', '.txt', '.xlsx', '.md', '.zip'];

/** mulberry32: a small PRNG whose sequence a seed fixes. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BenchTree {
  /** Folder name → its files' names. */
  folders: Map<string, string[]>;
  files: number;
}

export function benchTree(folderCount: number, filesPerFolder: number, seed = 20261129): BenchTree {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const word = () => (next() < 0.5 ? pick(LATIN) : pick(CHINESE));
  const folders = new Map<string, string[]>();
  for (let folder = 0; folder < folderCount; folder++) {
    const files: string[] = [];
    for (let file = 0; file < filesPerFolder; file++) files.push(`${word()}-${word()}-${folder}-${file}${pick(EXTENSIONS)}`);
    folders.set(`${word()}-${folder}`, files);
  }
  return { folders, files: folderCount * filesPerFolder };
}

/** Queries of four kinds, in turn: a word's start, a word's middle, an extension, Chinese of 2 and 4 characters. */
export function benchQueries(count: number, seed = 7): string[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const kinds = [
    () => pick(LATIN).slice(0, 4),
    () => pick(LATIN).slice(1, 5),
    () => pick(EXTENSIONS),
    () => (next() < 0.5 ? pick(CHINESE) : `${pick(CHINESE)}-${pick(CHINESE)}`),
  ];
  return Array.from({ length: count }, (_, index) => (kinds[index % kinds.length] as () => string)());
}

/** The kind of the `index`th of `benchQueries`, for the times by kind: the Chinese kind's 2-character queries apart. */
export const queryKind = (query: string, index: number) =>
  ['start', 'middle', 'extension', Array.from(query).length === 2 ? 'chinese-2' : 'chinese-words'][index % 4] as string;
