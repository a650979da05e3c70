"use client";
import { createContext, useContext } from "react";

/** Next's basePath (the IdP's context path), for the few places that leave Next's router. */
export const ContextPath = createContext("");

export function useContextPath(): string {
  return useContext(ContextPath);
}

/** A hard navigation: drops every cached record and secret held in memory. */
export function leaveTo(contextPath: string, page: string): void {
  window.location.assign(`${contextPath}${page}`);
}
