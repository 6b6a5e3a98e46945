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

// Dupli: the button setting the ticked cards is live only while exactly two are ticked, and says how
// many are (without JavaScript the page answers a wrong count, keeping the ticks).
const setButton = document.querySelector("button[data-set-ticked]");
if (setButton) {
  const boxes = document.querySelectorAll("[data-pick] input[name=set]");
  const follow = () => {
    const ticked = [...boxes].filter((box) => box.checked).length;
    setButton.disabled = ticked !== 2;
    setButton.setAttribute("aria-describedby", "ticked-count");
    document.getElementById("ticked-count").textContent = setButton.dataset.countText.replace("%(num)s", ticked);
  };
  for (const box of boxes) box.addEventListener("change", follow);
  follow();
}
