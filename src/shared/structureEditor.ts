/**
 * Messages between the "Show structure" editor (a webview) and the extension host, and what
 * the host sends about a structure file. Types only. Lengths in Å, volumes in Å³, energies in eV.
 */
import type { StructureData } from './canvasOutputs';

export interface StructureFileSummary {
  /** File name and path relative to the workspace (or absolute outside one). */
  name: string;
  path: string;
  /** Format read: cif, poscar, pwx-in, pwx-out, extxyz, xsf. */
  format: string;
  sha256: string;
  formula: string;
  natoms: number;
  volumeAngstrom3: number;
  spaceGroup?: { number: number; symbol: string; crystalSystem: string };
  /** Conventional cell parameters of the standardised cell. */
  lattice?: { a: number; b: number; c: number; alpha: number; beta: number; gamma: number; cOverA: number; volume: number };
  /** What the symmetry analysis could not do, or what the reader noted. */
  notes: string[];
}

export interface StructureEditorData {
  summary: StructureFileSummary;
  structure: StructureData;
  /** Whether this folder is trusted: a canvas is started only where DREAMS may run. */
  trusted: boolean;
}

export type HostToStructureEditor = { type: 'structure'; data: StructureEditorData } | { type: 'error'; text: string };

export type StructureEditorToHost =
  | { type: 'ready' }
  | { type: 'rendered'; atoms: number; frame: number; frames: number; repeat: [number, number, number]; webgl: boolean }
  | { type: 'start-canvas' }
  | { type: 'open-text' }
  | { type: 'save-image'; dataUrl: string }
  | { type: 'error'; text: string };
