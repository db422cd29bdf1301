import { escapeHeader, unescapeHeader } from './header-escaping';

describe('header escaping', () => {
  describe('escapeHeader', () => {
    it('should escape backslash, colon, LF and CR in 1.2', () => {
      expect(escapeHeader('a\\b:c\nd\re', '1.2')).toBe('a\\\\b\\cc\\nd\\re');
    });

    it('should leave CR alone in 1.1, which has no \\r escape', () => {
      expect(escapeHeader('a:b\rc', '1.1')).toBe('a\\cb\rc');
    });

    it('should return plain text unchanged', () => {
      expect(escapeHeader('/topic/jobs', '1.2')).toBe('/topic/jobs');
    });
  });

  describe('unescapeHeader', () => {
    it('should decode every 1.2 escape', () => {
      expect(unescapeHeader('a\\\\b\\cc\\nd\\re', '1.2')).toBe('a\\b:c\nd\re');
    });

    it('should refuse \\r in 1.1', () => {
      expect(unescapeHeader('a\\rb', '1.1')).toBeNull();
    });

    it('should refuse an undefined escape', () => {
      expect(unescapeHeader('a\\tb', '1.2')).toBeNull();
    });

    it('should refuse a trailing backslash', () => {
      expect(unescapeHeader('ab\\', '1.2')).toBeNull();
    });

    it('should round-trip arbitrary text', () => {
      const text = 'x:\\y\n\r:z\\c';
      expect(unescapeHeader(escapeHeader(text, '1.2'), '1.2')).toBe(text);
    });
  });
});
