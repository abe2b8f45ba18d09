import assert from 'node:assert/strict';
import { CANVAS_FILE_FORMAT, CanvasFileError, parseCanvasFile, serializeCanvasFile } from '../../../../src/core/canvas/canvasFile';

describe('canvas file (.dreams)', () => {
  it('an empty file opens as a new canvas with one objective cell', () => {
    const f = parseCanvasFile('  \n');
    assert.equal(f.dreams, CANVAS_FILE_FORMAT);
    assert.deepEqual(
      f.cells.map((c) => c.kind),
      ['objective'],
    );
  });

  it('round-trips cells, outputs, run and lastSeq', () => {
    const file = {
      dreams: 1,
      run: { id: 'run-1', log: 'run-1/events.jsonl' },
      lastSeq: 42,
      cells: [
        { kind: 'objective' as const, id: 'o1', text: 'fcc Al lattice constant' },
        {
          kind: 'artifact' as const,
          id: 'artifacts/a-7',
          text: 'a0',
          seq: 41,
          outputs: [{ mime: 'application/vnd.dreams.artifact+json', data: { value: 4.04, unit: 'Å' } }],
        },
      ],
    };
    assert.deepEqual(parseCanvasFile(serializeCanvasFile(file)), file);
  });

  it('refuses broken JSON with the line of the problem', () => {
    assert.throws(
      () => parseCanvasFile('{\n "dreams": 1,\n "cells": [,]\n}'),
      (e: unknown) => {
        assert.ok(e instanceof CanvasFileError);
        assert.equal(e.line, 3);
        assert.match(e.message, /not valid JSON/);
        return true;
      },
    );
  });

  it('refuses a newer format, naming both versions', () => {
    assert.throws(() => parseCanvasFile('{"dreams": 9, "cells": []}'), /format 9, newer than the 1/);
  });

  it('refuses a cell of unknown kind, naming the cell and the allowed kinds', () => {
    assert.throws(
      () => parseCanvasFile('{"dreams":1,"cells":[{"kind":"code","id":"x","text":""}]}'),
      /cell 1 has kind "code"; expected one of objective/,
    );
  });
});
