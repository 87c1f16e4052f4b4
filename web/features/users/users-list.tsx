/** Users: built in its own issue. */
export default function Screen() {
  return <h1>Users</h1>;
}
