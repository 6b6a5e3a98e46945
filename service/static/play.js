// The player page's hand, a progressive enhancement (the form works without JavaScript): while the
// "take a coin" box is ticked, the cards that cannot take one are disabled, so a tap cannot ask for a
// coin the centre does not hold; unticked, every playable card plays plainly again.
const coinBox = document.querySelector("input[data-coin-toggle]");
if (coinBox) {
  const follow = () => {
    for (const button of document.querySelectorAll("button[data-legal-move]")) {
      button.disabled = coinBox.checked && !button.hasAttribute("data-coin");
    }
  };
  coinBox.addEventListener("change", follow);
  follow();
}
