/** Lines: built in its own issue. */
export default function Screen() {
  return <h1>Lines</h1>;
}
