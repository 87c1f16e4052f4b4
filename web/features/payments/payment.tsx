/** Payment: built in its own issue. */
export default function Screen() {
  return <h1>Payment</h1>;
}
