/** Contact History: built in its own issue. */
export default function Screen() {
  return <h1>Contact History</h1>;
}
