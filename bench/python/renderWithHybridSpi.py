"""Times python-hybridspi (github.com/magicbadger/python-hybridspi) marshalling the documents of a
spi-static site to XML strings, from an in-memory model of them.

    python3 renderWithHybridSpi.py --site OUT [--library SRC] [--rounds 3] [--json]

OUT is a folder a spi-static build published. Its PI and SI documents are read (ElementTree) and
turned into the library's objects first, untimed: that way both sides render the same programmes
(the build's grid, specials, margins, time zones and episodes) without a second implementation
of the scheduling rules here. Then only `spi.xml.marshall` of every document is timed, `rounds`
times; the median and best wall time and the median CPU time are reported.

SRC is the library's `src` folder (a checkout or an unpacked archive); without it, `spi` must be
importable. It needs python-dateutil and isodate. Exit 3 when it cannot be imported.
"""

import argparse
import datetime
import json
import os
import statistics
import sys
import time
import xml.etree.ElementTree as ElementTree

NS = "{http://www.worlddab.org/schemas/spi/31}"
# Pretty-printed like spi-static's documents (two spaces), so both sides write the same shape.
INDENT = "  "

parser = argparse.ArgumentParser()
parser.add_argument("--site", required=True)
parser.add_argument("--library")
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--json", action="store_true")
options = parser.parse_args()

if options.library:
    sys.path.insert(0, options.library)
try:
    import spi
    from spi.xml import marshall
except ImportError as error:
    print(f"python-hybridspi cannot be imported: {error}", file=sys.stderr)
    sys.exit(3)


def when(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def minutes(duration):
    # spi-static writes PTnHnM / PTnM / PTnH; enough for the documents it publishes.
    hours, _, rest = duration[2:].partition("H") if "H" in duration else ("0", "", duration[2:])
    return datetime.timedelta(hours=int(hours), minutes=int(rest.rstrip("M") or 0))


def texts_into(target, element):
    """Names, descriptions, images, genres, links and group memberships of a described element."""
    for child in element:
        tag = child.tag[len(NS):]
        if tag in ("shortName", "mediumName", "longName"):
            kind = {"shortName": spi.ShortName, "mediumName": spi.MediumName, "longName": spi.LongName}
            target.names.append(kind[tag](child.text))
        elif tag == "mediaDescription":
            for item in child:
                item_tag = item.tag[len(NS):]
                if item_tag == "shortDescription":
                    target.descriptions.append(spi.ShortDescription(item.text))
                elif item_tag == "longDescription":
                    target.descriptions.append(spi.LongDescription(item.text))
                elif item_tag == "multimedia":
                    target.media.append(multimedia(item))
        elif tag == "genre":
            target.genres.append(child.get("href"))
        elif tag == "link":
            target.links.append(
                spi.Link(child.get("uri"), content=child.get("mimeValue"), description=child.get("description"))
            )
        elif tag == "memberOf" and hasattr(target, "memberships"):
            target.memberships.append(spi.Membership(child.get("id"), int(child.get("shortId"))))
        elif tag == "keywords" and hasattr(target, "keywords"):
            target.keywords.extend(word.strip() for word in child.text.split(","))


def multimedia(element):
    logo = element.get("type", spi.Multimedia.LOGO_UNRESTRICTED)
    if logo != spi.Multimedia.LOGO_UNRESTRICTED:
        return spi.Multimedia(element.get("url"), type=logo)
    return spi.Multimedia(
        element.get("url"),
        content=element.get("mimeValue"),
        width=int(element.get("width")),
        height=int(element.get("height")),
    )


def programme_information(root):
    schedule_element = root.find(NS + "schedule")
    scope = schedule_element.find(NS + "scope")
    schedule = spi.Schedule(
        spi.Scope(when(scope.get("startTime")), when(scope.get("stopTime"))),
        created=when(schedule_element.get("creationTime")),
        version=int(schedule_element.get("version", "1")),
        originator=schedule_element.get("originator"),
    )
    for element in schedule_element.findall(NS + "programme"):
        programme = spi.Programme(element.get("id"), element.get("shortId"))
        texts_into(programme, element)
        for location_element in element.findall(NS + "location"):
            location = spi.Location()
            for time_element in location_element.findall(NS + "time"):
                location.times.append(spi.Time(when(time_element.get("time")), minutes(time_element.get("duration"))))
            programme.locations.append(location)
        schedule.programmes.append(programme)
    info = spi.ProgrammeInfo()
    info.schedules = [schedule]
    return info


def bearer(element):
    uri = element.get("id")
    if uri.startswith("dab:"):
        made = spi.DabBearer.fromstring(uri)
    elif uri.startswith("fm:"):
        made = spi.FmBearer.fromstring(uri)
    else:
        made = spi.IpBearer(uri, element.get("mimeValue"), bitrate=element.get("bitrate"))
    if element.get("cost"):
        made.cost = int(element.get("cost"))
    if element.get("mimeValue") and isinstance(made, spi.DigitalBearer):
        made.content = element.get("mimeValue")
    return made


def service_information(root):
    provider = spi.ServiceProvider()
    services = root.find(NS + "services")
    provider_element = services.find(NS + "serviceProvider")
    texts_into(provider, provider_element)
    # The library's marshaller fails on a provider's descriptions (it appends them to an unbound
    # variable), so the provider goes without them.
    provider.descriptions = []
    info = spi.ServiceInfo(
        created=when(root.get("creationTime")),
        version=int(root.get("version", "1")),
        originator=root.get("originator"),
        provider=provider,
    )
    for element in services.findall(NS + "service"):
        service = spi.Service()
        texts_into(service, element)
        for bearer_element in element.findall(NS + "bearer"):
            service.bearers.append(bearer(bearer_element))
        radiodns = element.find(NS + "radiodns")
        if radiodns is not None:
            service.lookup = spi.Lookup(radiodns.get("fqdn"), radiodns.get("serviceIdentifier"))
        info.services.append(service)
    return info


def documents_of(site):
    models = []
    for folder, _, files in sorted(os.walk(site)):
        if "_spi-static" in folder:
            continue
        for name in sorted(files):
            if name.endswith("_PI.xml") or name == "SI.xml":
                root = ElementTree.parse(os.path.join(folder, name)).getroot()
                model = programme_information(root) if name.endswith("_PI.xml") else service_information(root)
                models.append(model)
    return models


models = documents_of(options.site)
rounds = []
cpu_rounds = []
written = 0
for _ in range(options.rounds):
    started, cpu_started = time.perf_counter(), time.process_time()
    written = sum(len(marshall(model, indent=INDENT)) for model in models)
    rounds.append(time.perf_counter() - started)
    cpu_rounds.append(time.process_time() - cpu_started)

median = statistics.median(rounds)
result = {
    "documents": len(models),
    "programmeInformation": sum(isinstance(model, spi.ProgrammeInfo) for model in models),
    "characters": written,
    "seconds": round(median, 3),
    "bestSeconds": round(min(rounds), 3),
    "cpuSeconds": round(statistics.median(cpu_rounds), 3),
    "documentsPerSecond": round(len(models) / median, 1),
    "rounds": [round(seconds, 3) for seconds in rounds],
    "python": sys.version.split()[0],
}
if options.json:
    print(json.dumps(result))
else:
    print(
        f"python-hybridspi: {result['documents']} documents "
        f"({result['programmeInformation']} PI), {written / 1e6:.1f} M characters, "
        f"median {median:.2f} s (best {min(rounds):.2f} s, CPU {result['cpuSeconds']:.2f} s), "
        f"{result['documentsPerSecond']} documents/s"
    )
