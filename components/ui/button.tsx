import type { ButtonHTMLAttributes } from "react";

type TButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: "primary" | "secondary" | "danger" | "ghost";
  size?: "md" | "sm";
};

export function Button({ variant = "secondary", size = "md", className, type = "button", ...rest }: TButtonProps) {
  const classes = ["ui-button", `ui-button--${variant}`, size === "sm" ? "ui-button--sm" : "", className ?? ""];
  return <button type={type} className={classes.filter(Boolean).join(" ")} {...rest} />;
}
