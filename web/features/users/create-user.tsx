/** Add User: built in its own issue. */
export default function Screen() {
  return <h1>Add User</h1>;
}
