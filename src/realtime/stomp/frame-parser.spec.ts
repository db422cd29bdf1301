import { StompFrame } from './frame';
import { encodeFrame } from './frame-encoder';
import { StompFrameParser, StompParseError } from './frame-parser';

function parserWith(maxFrameBytes = 1024) {
  const parser = new StompFrameParser({ maxFrameBytes, maxHeaders: 8 });
  const frames: StompFrame[] = [];
  const push = (chunk: string | Buffer) => parser.push(Buffer.from(chunk), (f) => frames.push(f));
  return { parser, frames, push };
}

describe(StompFrameParser.name, () => {
  describe('framing', () => {
    it('should decode a frame terminated by NUL', () => {
      const { frames, push } = parserWith();
      push('SEND\ndestination:/request/bean\n\n{"a":1}\0');
      expect(frames).toHaveLength(1);
      expect(frames[0].command).toBe('SEND');
      expect(frames[0].headers.destination).toBe('/request/bean');
      expect(frames[0].body.toString()).toBe('{"a":1}');
    });

    it('should accept CRLF line endings', () => {
      const { frames, push } = parserWith();
      push('SUBSCRIBE\r\nid:1\r\ndestination:/topic/a\r\n\r\n\0');
      expect(frames[0].headers).toEqual(expect.objectContaining({ id: '1', destination: '/topic/a' }));
    });

    it('should decode several frames in one chunk and skip heart-beat EOLs between them', () => {
      const { frames, push } = parserWith();
      push('\n\r\nSEND\ndestination:/a\n\nx\0\nSEND\ndestination:/b\n\ny\0\r\n\n');
      expect(frames.map((f) => f.headers.destination)).toEqual(['/a', '/b']);
    });

    it('should reassemble a frame split at every byte', () => {
      const { frames, push } = parserWith();
      for (const byte of Buffer.from('SEND\r\ndestination:/a\r\ncontent-length:3\r\n\r\na\0b\0\n'))
        push(Buffer.of(byte));
      expect(frames).toHaveLength(1);
      expect(frames[0].body).toEqual(Buffer.from('a\0b'));
    });

    it('should read binary bodies with NULs by content-length', () => {
      const { frames, push } = parserWith();
      const body = Buffer.from([0, 0xff, 0, 0x0a]);
      push(encodeFrame('SEND', [['destination', '/a']], '1.2', body));
      expect(frames[0].body).toEqual(body);
    });

    it('should ignore heart-beats alone', () => {
      const { frames, push } = parserWith();
      push('\n');
      push('\r\n\n');
      expect(frames).toHaveLength(0);
    });

    it('should keep the first of repeated headers', () => {
      const { frames, push } = parserWith();
      push('SEND\nfoo:1\nfoo:2\n\n\0');
      expect(frames[0].headers.foo).toBe('1');
    });

    it('should keep colons after the first in the value', () => {
      const { frames, push } = parserWith();
      push('CONNECT\nhost:a:b\n\n\0');
      expect(frames[0].headers.host).toBe('a:b');
    });
  });

  describe('header escaping', () => {
    it('should unescape 1.2 headers', () => {
      const { frames, push } = parserWith();
      push('SEND\nk\\cey:a\\nb\\\\c\\rd\n\n\0');
      expect(frames[0].headers['k:ey']).toBe('a\nb\\c\rd');
    });

    it('should not unescape CONNECT headers', () => {
      const { frames, push } = parserWith();
      push('CONNECT\npasscode:a\\cb\n\n\0');
      expect(frames[0].headers.passcode).toBe('a\\cb');
    });

    it('should not unescape in 1.0', () => {
      const { parser, frames, push } = parserWith();
      parser.version = '1.0';
      push('SEND\nx:a\\tb\n\n\0');
      expect(frames[0].headers.x).toBe('a\\tb');
    });

    it('should apply a version set while decoding the previous frame of the same chunk', () => {
      const parser = new StompFrameParser({ maxFrameBytes: 1024, maxHeaders: 8 });
      const values: string[] = [];
      parser.push(Buffer.from('CONNECT\n\n\0SEND\nx:a\\tb\n\n\0'), (f) => {
        if (f.command === 'CONNECT') parser.version = '1.0';
        else values.push(f.headers.x);
      });
      expect(values).toEqual(['a\\tb']);
    });

    it('should refuse an undefined escape sequence', () => {
      const { push } = parserWith();
      expect(() => push('SEND\nx:a\\tb\n\n\0')).toThrow('Undefined escape sequence in header');
    });
  });

  describe('malformed input', () => {
    it.each([
      ['an invalid command line', 'se nd\n\n\0'],
      ['a header without colon', 'SEND\nnocolon\n\n\0'],
      ['a non-numeric content-length', 'SEND\ncontent-length:abc\n\n\0'],
      ['a missing NUL after content-length octets', 'SEND\ncontent-length:1\n\nab\0'],
      ['too many headers', `SEND\n${'a:b\n'.repeat(9)}\n\0`],
    ])('should refuse %s', (_, text) => {
      const { push } = parserWith();
      expect(() => push(text)).toThrow(StompParseError);
    });
  });

  describe('size limit', () => {
    const tooLarge = expect.objectContaining({ tooLarge: true });

    it('should refuse a complete frame above the limit', () => {
      const { push } = parserWith(64);
      expect(() => push(`SEND\n\n${'x'.repeat(64)}\0`)).toThrow(tooLarge);
    });

    it('should refuse a huge content-length before its body arrives', () => {
      const { push } = parserWith(64);
      expect(() => push('SEND\ncontent-length:99999999\n\n')).toThrow(tooLarge);
    });

    it('should refuse an unterminated frame once it passes the limit', () => {
      const { push } = parserWith(64);
      push('SEND\n\n');
      expect(() => push('x'.repeat(80))).toThrow(tooLarge);
    });

    it('should refuse endless header lines', () => {
      const { push } = parserWith(64);
      expect(() => push(`SEND\n${'h'.repeat(100)}`)).toThrow(tooLarge);
    });

    it('should accept a frame of exactly the limit', () => {
      const { frames, push } = parserWith(16);
      push(`SEND\n\n${'x'.repeat(9)}\0`);
      expect(frames).toHaveLength(1);
    });
  });
});
