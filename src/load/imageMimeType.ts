const byExtension: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
};

/** The media type an image URL's extension names, or undefined when it names none. */
export function imageMimeType(url: string): string | undefined {
  const extension = /\.([a-z]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  return extension ? byExtension[extension] : undefined;
}
