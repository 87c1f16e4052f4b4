/** Create link: built in its own issue. */
export default function Screen() {
  return <h1>Create link</h1>;
}
