/** Promo Codes: built in its own issue. */
export default function Screen() {
  return <h1>Promo Codes</h1>;
}
