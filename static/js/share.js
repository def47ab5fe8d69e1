// A result to share (templates/_macros/share.html): the image and the text are fetched as
// the page opens, so that the tap opens the share sheet at once (a browser lets a page
// share only right after a tap). Where the browser can share files (Web Share level 2:
// navigator.canShare({files})), the share sheet gets the image and the text; elsewhere the
// image is downloaded and the text copied to the clipboard.
(function () {
  function fetched(url, read) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return read(response);
    });
  }

  function setUp(box) {
    const button = box.querySelector("[data-share-button]");
    const status = box.querySelector("[data-share-status]");
    let ready = null;
    function both() {
      if (!ready) {
        ready = Promise.all([
          fetched(box.dataset.png, function (r) { return r.blob(); }),
          fetched(box.dataset.txt, function (r) { return r.text(); })]);
        ready.catch(function () { ready = null; }); // asked again at the next tap
      }
      return ready;
    }
    function say(text) { status.textContent = text; }
    async function saveAndCopy(file, text) {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(file);
      link.download = file.name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
      try {
        await navigator.clipboard.writeText(text);
        say(box.dataset.saved);
      } catch (err) {
        say(box.dataset.savedOnly);
      }
    }
    button.hidden = false;
    both();
    button.addEventListener("click", async function () {
      say("");
      let blob, text;
      try {
        [blob, text] = await both();
      } catch (err) {
        say(box.dataset.failed);
        return;
      }
      const file = new File([blob], box.dataset.name + ".png", { type: "image/png" });
      if (navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
        try {
          await navigator.share({ files: [file], title: box.dataset.title, text: text });
          say(box.dataset.shared);
        } catch (err) {
          if (err && err.name === "AbortError") return; // the share sheet was closed
          await saveAndCopy(file, text);
        }
        return;
      }
      await saveAndCopy(file, text);
    });
  }

  document.querySelectorAll("[data-share-result]").forEach(setUp);
})();
