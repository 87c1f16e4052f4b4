/** My Filters: built in its own issue. */
export default function Screen() {
  return <h1>My Filters</h1>;
}
