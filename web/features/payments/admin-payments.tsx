/** Payments: built in its own issue. */
export default function Screen() {
  return <h1>Payments</h1>;
}
