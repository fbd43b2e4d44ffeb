// The EPG preview page: reads the preview server's JSON (the model the build rendered) and
// redraws when a rebuild finishes, told by server-sent events. No framework, no network.
const HOUR_PX = 100;
const HOUR = 3_600_000;
const AIRING = { grid: "weekly grid", dated: "dated day (override)", special: "special" };

const view = { site: null, day: null, date: null, generation: -1, selected: null };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "style") node.style.cssText = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function getJson(path) {
  const response = await fetch(path, { cache: "no-store" });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

function localClock(instant, timeZone) {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "2-digit",
    month: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  });
  return format.format(new Date(instant)).replace("GMT", "UTC");
}

function nowInstant() {
  return view.site.clockFixed ? view.site.now : Date.now();
}

function renderHeader() {
  const { site } = view;
  document.getElementById("provider").textContent = site.provider.name;
  document.title = `${site.provider.name}: programme preview`;
  const clock = document.getElementById("clock");
  clock.textContent = `Now: ${localClock(nowInstant(), site.provider.timeZone)} ${site.provider.timeZone}${site.clockFixed ? " (fixed by --now)" : ""}`;
  const links = document.getElementById("site-links");
  links.replaceChildren(
    docLink(site.siPath, "SI (open)", false),
    " · ",
    docLink(site.siPath, "SI with key", true),
  );
  const warnings = site.problems;
  document.getElementById("warnings").hidden = warnings.length === 0;
  document.getElementById("warning-list").replaceChildren(...warnings.map((w) => el("li", {}, w)));
}

function renderDays() {
  const { site } = view;
  const list = document.getElementById("days");
  list.replaceChildren(
    ...site.days.map((day) => {
      const today = day.date === site.today;
      return el(
        "li",
        {},
        el(
          "button",
          {
            type: "button",
            class: today ? "today" : undefined,
            "aria-pressed": day.date === view.date ? "true" : "false",
            "aria-current": today ? "date" : undefined,
            "data-date": day.date,
            onclick: () => selectDate(day.date),
          },
          day.label,
          today ? " (today)" : "",
          day.hours !== 24 ? el("span", { class: "dst" }, `${day.hours} h: clocks change`) : "",
        ),
      );
    }),
  );
}

function docLink(path, label, withKey) {
  return el(
    "a",
    {
      href: path,
      "data-key": withKey ? "true" : undefined,
      onclick: (event) => {
        event.preventDefault();
        showDocument(path, label, withKey);
      },
    },
    label,
  );
}

async function showDocument(path, label, withKey) {
  const key = withKey ? view.site.devKey : undefined;
  const headers = key ? { Authorization: `ClientIdentifier ${key}` } : {};
  const dialog = document.getElementById("doc");
  document.getElementById("doc-title").textContent = `${label}: ${path}`;
  const response = await fetch(path, { headers, cache: "no-store" });
  const body = await response.text();
  document.getElementById("doc-meta").textContent =
    `${response.status} ${response.statusText} · ${response.headers.get("content-type") ?? ""}` +
    (withKey && !key ? " · no development key is configured for this preview" : "");
  const auth = key ? ` -H "Authorization: ClientIdentifier ${key}"` : "";
  document.getElementById("doc-curl").textContent = `curl${auth} ${location.origin}${path}`;
  document.getElementById("doc-body").textContent = body;
  if (!dialog.open) dialog.showModal();
}

/**
 * What a receiver shows: the names cut to 8 and 16 characters, and each logo size. The 32x32
 * and the 112x32 rectangle at their real pixel size, the 32x32 on a dark and a light screen (a
 * logo that vanishes on one of them needs a background); the larger ones scaled down. The
 * service's logo warnings beside them.
 */
function receiverView(service) {
  const { receiver } = service;
  const figures = receiver.logos.flatMap((logo) =>
    logo.size === "32x32"
      ? [logoFigure(service, logo, "dark"), logoFigure(service, logo, "light")]
      : [logoFigure(service, logo)],
  );
  const warnings = service.problems.filter((problem) => /\blogos?\b/.test(problem));
  return el(
    "details",
    { class: "receiver" },
    el("summary", {}, "On a receiver"),
    el("p", {}, "8: ", el("span", { class: "name" }, receiver.short.padEnd(8, " "))),
    el("p", {}, "16: ", el("span", { class: "name" }, receiver.medium.padEnd(16, " "))),
    el("div", { class: "logos" }, figures),
    warnings.length > 0
      ? el(
          "ul",
          { class: "logo-warnings" },
          warnings.map((w) => el("li", { class: "warn" }, w)),
        )
      : null,
  );
}

/** One logo size; `screen` sets a dark or light background behind it. */
function logoFigure(service, logo, screen) {
  const actual = logo.width <= 112;
  const width = actual ? logo.width : 64;
  const height = Math.round((width * logo.height) / logo.width);
  const style = `width:${width}px;height:${height}px`;
  const classes = `logo${actual ? " actual" : ""}${screen ? ` on-${screen}` : ""}`;
  return el(
    "figure",
    {},
    logo.url
      ? el("img", {
          class: classes,
          loading: "lazy",
          src: logo.url,
          width: logo.width,
          height: logo.height,
          alt: `${service.names.short} logo ${logo.size}`,
          style,
        })
      : el("span", { class: `${classes} missing`, style }, "none"),
    el("figcaption", {}, screen ? `${logo.size} ${screen}` : logo.size),
  );
}

function serviceHeader(service, row) {
  const dst = row.hours !== 24;
  return el(
    "div",
    { class: "service" },
    el("h2", {}, service.names.medium),
    el("p", {}, `${service.id} · ${service.timeZone} (${row.offsets})`),
    el(
      "p",
      { class: dst ? "warn" : undefined },
      `${row.hours} hours${dst ? (row.hours > 24 ? ": clocks go back" : ": clocks go forward") : ""}`,
    ),
    el("p", {}, docLink(row.piPath, "PI for this day", true)),
    service.problems.length > 0
      ? el(
          "details",
          {},
          el("summary", { class: "warn" }, `⚠ ${service.problems.length} warning(s)`),
          el(
            "ul",
            {},
            service.problems.map((p) => el("li", { class: "warn" }, p)),
          ),
        )
      : "",
    receiverView(service),
  );
}

function programmeBlock(block, row, rowIndex, index) {
  const left = ((block.start - row.dayStart) / HOUR) * HOUR_PX;
  const width = Math.max(((block.end - block.start) / HOUR) * HOUR_PX, 4);
  const style = `left:${left}px;width:${width}px`;
  if (block.type === "gap") {
    return el(
      "div",
      { class: "block gap", style, title: `dead air ${block.time}` },
      el("span", { class: "time" }, block.time),
      el("span", { class: "name" }, "dead air"),
    );
  }
  const now = nowInstant();
  const onAir = block.start <= now && now < block.end;
  const classes = [
    "block",
    block.airing,
    onAir ? "on-air" : "",
    block.fromPreviousDay ? "from-previous" : "",
    block.intoNextDay ? "into-next" : "",
  ];
  return el(
    "button",
    {
      type: "button",
      class: classes.filter(Boolean).join(" "),
      style,
      tabindex: "-1",
      title: [`${block.time} ${block.names.long}`, block.description].filter(Boolean).join("\n"),
      "aria-label": `${block.time}, ${block.names.long}, ${AIRING[block.airing]}${onAir ? ", on air now" : ""}${block.problems.length ? `, ${block.problems.length} warning(s)` : ""}`,
      "data-row": rowIndex,
      "data-index": index,
      "data-crid": block.crid,
      onclick: (event) => select(event.currentTarget, block, row),
      onfocus: (event) => select(event.currentTarget, block, row),
    },
    el("span", { class: "time" }, block.time),
    el(
      "span",
      { class: "name" },
      onAir ? el("span", { class: "badge" }, "ON AIR") : "",
      block.airing === "special" ? el("span", { class: "badge" }, "SPECIAL") : "",
      block.problems.length ? "⚠ " : "",
      block.names.medium,
    ),
  );
}

function track(row) {
  const width = row.hours * HOUR_PX;
  const now = nowInstant();
  const seen = new Set();
  const ticks = row.ticks.map((tick) => {
    const repeat = seen.has(tick.label);
    seen.add(tick.label);
    return el(
      "span",
      {
        class: repeat ? "tick repeat" : "tick",
        style: `left:${((tick.at - row.dayStart) / HOUR) * HOUR_PX}px`,
      },
      tick.label,
    );
  });
  return { width, now, ticks };
}

function renderGrid() {
  const { site, day } = view;
  const grid = document.getElementById("grid");
  if (!day) {
    grid.replaceChildren(
      el("p", { class: "empty" }, "No valid build yet: see the problems above."),
    );
    return;
  }
  const services = new Map(site.services.map((s) => [s.id, s]));
  let rowIndex = 0;
  const rows = day.rows.map((row) => {
    const service = services.get(row.serviceId);
    const { width, now, ticks } = track(row);
    const blocks = row.blocks.map((block, index) => programmeBlock(block, row, rowIndex, index));
    const nowLine =
      now >= row.dayStart && now < row.dayEnd
        ? el(
            "div",
            {
              class: "now-line",
              style: `left:${((now - row.dayStart) / HOUR) * HOUR_PX}px`,
              "aria-hidden": "true",
            },
            el("span", {}, "now"),
          )
        : "";
    rowIndex += 1;
    return el(
      "section",
      {
        class: "row",
        "data-service": row.serviceId,
        "aria-label": service.names.long,
      },
      serviceHeader(service, row),
      el(
        "div",
        { class: "track", style: `width:${width}px`, "data-hours": row.hours },
        el("div", { class: "ticks", "aria-hidden": "true" }, ticks),
        blocks,
        nowLine,
      ),
    );
  });
  grid.replaceChildren(...rows);
  const buttons = grid.querySelectorAll("button.block");
  const keep =
    view.selected && grid.querySelector(`button.block[data-crid="${CSS.escape(view.selected)}"]`);
  const start = keep || grid.querySelector("button.block.on-air") || buttons[0];
  if (start) start.tabIndex = 0;
  if (keep) keep.classList.add("selected");
}

function select(button, block, row) {
  for (const other of document.querySelectorAll(
    "button.block[tabindex='0'], button.block.selected",
  )) {
    other.tabIndex = -1;
    other.classList.remove("selected");
  }
  button.tabIndex = 0;
  button.classList.add("selected");
  view.selected = block.crid;
  const service = view.site.services.find((s) => s.id === row.serviceId);
  const names = block.names;
  document.getElementById("details").replaceChildren(
    el("h2", {}, names.long),
    block.image
      ? el("img", {
          loading: "lazy",
          // Offline the image cannot load: keep its alt text out of the way.
          onerror: (event) => {
            event.currentTarget.hidden = true;
          },
          src: block.image,
          alt: `Image for ${names.long}`,
          width: 320,
          height: 240,
        })
      : "",
    el(
      "dl",
      {},
      el("dt", {}, "Time"),
      el("dd", {}, `${block.time} (${block.duration}), ${service.timeZone}, ${row.offsets}`),
      el("dt", {}, "Service"),
      el("dd", {}, service.names.medium),
      el("dt", {}, "Names"),
      el("dd", {}, [names.short, names.medium, names.long].filter(Boolean).join(" / ")),
      el("dt", {}, "From"),
      el("dd", {}, `${AIRING[block.airing]}, ${block.source}`),
      el("dt", {}, "CRID"),
      el("dd", {}, block.crid),
      block.genres.length
        ? [
            el("dt", {}, "Genre"),
            el(
              "dd",
              {},
              block.genres.flatMap((genre, i) => [
                i ? ", " : "",
                el("span", { class: "genre", title: genre.href }, genre.label),
              ]),
            ),
          ]
        : "",
      block.website
        ? [el("dt", {}, "Website"), el("dd", {}, el("a", { href: block.website }, block.website))]
        : "",
      el("dt", {}, "Document"),
      el("dd", {}, docLink(row.piPath, "PI", true)),
    ),
    block.description ? el("p", {}, block.description) : "",
    block.problems.length
      ? el(
          "ul",
          {},
          block.problems.map((p) => el("li", { class: "warn" }, `⚠ ${p}`)),
        )
      : "",
  );
}

function moveFocus(from, key) {
  const grid = document.getElementById("grid");
  const row = Number(from.dataset.row);
  const rowButtons = (r) => [...grid.querySelectorAll(`button.block[data-row="${r}"]`)];
  const here = rowButtons(row);
  const at = here.indexOf(from);
  let target;
  if (key === "ArrowRight") target = here[at + 1];
  else if (key === "ArrowLeft") target = here[at - 1];
  else if (key === "Home") target = here[0];
  else if (key === "End") target = here.at(-1);
  else if (key === "ArrowUp" || key === "ArrowDown") {
    // The programme of the next row that is on air at the middle of this one.
    const middle = from.offsetLeft + from.offsetWidth / 2;
    const other = rowButtons(row + (key === "ArrowDown" ? 1 : -1));
    target =
      other.find((b) => b.offsetLeft <= middle && middle < b.offsetLeft + b.offsetWidth) ??
      other.at(key === "ArrowDown" ? 0 : -1);
  }
  if (!target) return false;
  target.focus();
  target.scrollIntoView({ block: "nearest", inline: "nearest" });
  return true;
}

function renderProblems(state) {
  const banner = document.getElementById("problems");
  const status = document.getElementById("status");
  banner.hidden = state.ok;
  if (!state.ok) {
    document
      .getElementById("problem-list")
      .replaceChildren(...state.problems.map((p) => el("li", {}, p)));
    document.getElementById("problems-built").textContent = state.builtAt
      ? ` (built for ${state.builtAt})`
      : "";
  }
  status.className = state.ok ? "status" : "status error";
  status.textContent = state.building
    ? "building…"
    : state.ok
      ? "up to date with the last save"
      : `the last save has ${state.problems.length} problem(s)`;
  document.body.dataset.generation = String(state.generation);
  document.body.dataset.state = state.building ? "building" : state.ok ? "ok" : "error";
}

async function loadDay() {
  view.day = view.date ? await getJson(`/_preview/day/${view.date}.json`) : null;
  renderDays();
  renderGrid();
}

async function selectDate(date) {
  view.date = date;
  await loadDay();
  scrollToNow();
}

/** Shows now, and the start of what is on air when it began not long before. */
function scrollToNow() {
  const grid = document.getElementById("grid");
  const line = grid.querySelector(".now-line");
  if (!line) {
    grid.scrollLeft = 0;
    return;
  }
  const onAir = [...grid.querySelectorAll("button.block.on-air")].map((b) => b.offsetLeft);
  const earliest = Math.max(Math.min(...onAir, line.offsetLeft), line.offsetLeft - HOUR_PX * 5);
  grid.scrollLeft = Math.max(Math.min(earliest, line.offsetLeft - HOUR_PX * 2) - HOUR_PX / 4, 0);
}

async function reload(state) {
  const { site } = await getJson("/_preview/site.json");
  const first = view.site === null;
  view.site = site;
  if (site) {
    if (!view.date || !site.days.some((d) => d.date === view.date)) view.date = site.today;
    renderHeader();
    await loadDay();
    if (first) scrollToNow();
  } else {
    renderGrid();
  }
  view.generation = state.generation;
}

document.getElementById("grid").addEventListener("keydown", (event) => {
  const button = event.target.closest?.("button.block");
  if (button && moveFocus(button, event.key)) event.preventDefault();
});

// On the real clock, "now" moves: redraw it every minute (a new day comes with a rebuild).
setInterval(() => {
  if (view.site && !view.site.clockFixed) {
    renderHeader();
    renderGrid();
  }
}, 60_000);

const events = new EventSource("/_preview/events");
let pending = Promise.resolve();
events.onmessage = (message) => {
  const state = JSON.parse(message.data);
  pending = pending.then(async () => {
    // A failed build leaves the last good model in place: only a good one redraws the grid.
    const stale = view.site === null || (state.ok && state.generation !== view.generation);
    if (!state.building && stale) await reload(state);
    renderProblems(state);
  });
};
events.onerror = () => {
  document.getElementById("status").textContent = "preview server not reachable; retrying…";
};
