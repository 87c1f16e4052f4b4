/** Vite's raw imports: the file's text (the API reference test compares the committed docs). */
declare module '*?raw' {
  const text: string;
  export default text;
}
