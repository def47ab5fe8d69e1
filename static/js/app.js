// Marks that scripts run, so enhanced controls replace their plain-HTML fallbacks.
document.documentElement.classList.add("js");
