/**
 * Stop word lists of the Snowball project (snowballstem.org, BSD licence), which MongoDB's text indexes
 * use for English and German. No maintained npm package ships these lists: `stopword`'s English list,
 * for one, lacks 87 of these 174 words (`not`, `no`, `when`, every contraction), which would change
 * both what matches and the scores. Words are lower case, with diacritics, as the tokenizer checks them.
 */
const ENGLISH = `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was
were be been being have has had having do does did doing would should could ought i'm you're he's she's it's we're
they're i've you've we've they've i'd you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll they'll isn't
aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't shan't shouldn't can't cannot
couldn't mustn't let's that's who's what's here's there's when's where's why's how's a an the and but if or because
as until while of at by for with about against between into through during before after above below to from up down
in out on off over under again further then once here there when where why how all any both each few more most
other some such no nor not only own same so than too very`;

const GERMAN = `aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes anderm
andern anders auch auf aus bei bin bis bist da damit dann das dass dasselbe dazu daß dein deine deinem deinen deiner
deines dem demselben den denn denselben der derer derselbe derselben des desselben dessen dich die dies diese
dieselbe dieselben diesem diesen dieser dieses dir doch dort du durch ein eine einem einen einer eines einig einige
einigem einigen einiger einiges einmal er es etwas euch euer eure eurem euren eurer eures für gegen gewesen hab habe
haben hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im in indem ins ist jede
jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann kein keine keinem keinen keiner keines können könnte
machen man manche manchem manchen mancher manches mein meine meinem meinen meiner meines mich mir mit muss musste
nach nicht nichts noch nun nur ob oder ohne sehr sein seine seinem seinen seiner seines selbst sich sie sind so
solche solchem solchen solcher solches soll sollte sondern sonst um und uns unse unsem unsen unser unses unter viel
vom von vor war waren warst was weg weil weiter welche welchem welchen welcher welches wenn werde werden wie wieder
will wir wird wirst wo wollen wollte während würde würden zu zum zur zwar zwischen über`;

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/));

export const STOP_WORDS: Record<string, ReadonlySet<string>> = { english: words(ENGLISH), german: words(GERMAN) };
