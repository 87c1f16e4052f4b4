/** Vite's raw imports: the file's text (the API reference test compares the committed docs). */
declare module '*?raw' {
  const text: string;
  export default text;
}

/** Vite's glob import, as the API reference test uses it: each matching file's text by path. */
interface ImportMeta {
  glob<T>(patterns: string | string[], options: { query: '?raw'; import: 'default'; eager: true }): Record<string, T>;
}
