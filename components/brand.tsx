import Link from "next/link";

/** The product mark and the app's title; a link home in a header, plain text on a sign-in card. */
export function Brand({ title, href }: { title: string; href?: string }) {
  const mark = (
    <span className="console-brand__mark" aria-hidden="true">
      ID
    </span>
  );
  return href ? (
    <Link href={href} className="console-brand">
      {mark}
      {title}
    </Link>
  ) : (
    <div className="console-brand console-brand--center">
      {mark}
      {title}
    </div>
  );
}
