/** My active loads: built in its own issue. */
export default function Screen() {
  return <h1>My active loads</h1>;
}
