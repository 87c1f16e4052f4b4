/** Payment result: built in its own issue. */
export default function Screen() {
  return <h1>Payment result</h1>;
}
