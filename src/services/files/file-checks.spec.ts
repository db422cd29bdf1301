import { sanitizeFileName } from './file-name';
import { detectFileType } from './file-type';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('upload checks', () => {
  describe('detectFileType', () => {
    it('should recognise content whose extension agrees', () => {
      expect(detectFileType(PNG, 'logo.PNG')).toBe('image/png');
      expect(detectFileType(Buffer.from('%PDF-1.7\n...'), 'a.pdf')).toBe('application/pdf');
      expect(detectFileType(Buffer.from('name;price\nrose;3\n'), 'prices.csv')).toBe('text/csv');
    });

    it.each([
      [PNG, 'logo.pdf', 'content and extension disagree'],
      [Buffer.from('%PDF-1.7'), 'invoice.png', 'a PDF named .png'],
      [Buffer.from('MZ\x90\x00'), 'setup.exe', 'an executable'],
      [Buffer.from('<svg onload="alert(1)"/>'), 'x.svg', 'SVG'],
      [Buffer.from('<html><script>alert(1)</script>'), 'notes.txt', 'HTML named .txt'],
      [Buffer.from([0x00, 0x01, 0x02]), 'data.txt', 'binary named .txt'],
      [PNG, 'logo', 'no extension'],
    ])('should refuse %s (%s)', (content, name) => {
      expect(detectFileType(content as Buffer, name)).toBeUndefined();
    });
  });

  describe('sanitizeFileName', () => {
    it.each([
      ['../../etc/passwd', 'passwd'],
      ['C:\\Windows\\system32\\evil.dll', 'evil.dll'],
      ['.htaccess', 'htaccess'],
      ['a<script>b.png', 'a_script_b.png'],
      ['na\u0000me\r\n.txt', 'na_me_.txt'],
      ['Grüße Ölfarbe.jpg', 'Grüße Ölfarbe.jpg'],
      ['"quoted";name.pdf', '_quoted_name.pdf'],
      ['...', 'file'],
    ])('should turn %j into %j', (original, expected) => {
      expect(sanitizeFileName(original)).toBe(expected);
    });

    it('should keep the extension when shortening', () => {
      const name = sanitizeFileName(`${'x'.repeat(300)}.png`);
      expect(name).toHaveLength(200);
      expect(name.endsWith('.png')).toBe(true);
    });
  });
});
