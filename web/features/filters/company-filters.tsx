/** Broker Filtering: built in its own issue. */
export default function Screen() {
  return <h1>Broker Filtering</h1>;
}
