import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { toLocale } from '@/domain/i18n/language';
import { i18next } from '@/lib/i18n';
import { WallScene } from '@/features/data-center/components/wall-scenes';
import { MeetBoardScene } from '@/features/meets/components/board-scene';
import { WallScreen } from '@/features/wall/components/wall-screen';
import { WarningsWallScene } from '@/features/wall/components/warnings-scene';
import { LessonsWallScene } from '@/features/wall/components/lessons-scene';

/**
 * /wall/:token (docs/product-rules.md#wall-display): the kiosk display of a screen link, outside the sign-in guard and the console shell.
 * The wall feature runs the display; the data-centre feature draws its scenes, the meets feature a meet's live board. `?lang=en_us` picks the language
 * for this screen without touching the stored choice.
 */
export function WallPage() {
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const lang = search.get('lang');
  useEffect(() => {
    if (lang) void i18next.changeLanguage(toLocale(lang));
  }, [lang]);
  return <WallScreen token={token} renderScene={(answer) =>
        answer.scene === 'meetBoard' ? (
          <MeetBoardScene board={answer.board} />
        ) : answer.data.scene === 'warnings' ? (
          <WarningsWallScene data={answer.data} />
        ) : answer.data.scene === 'lessons' ? (
          <LessonsWallScene data={answer.data} />
        ) : (
          <WallScene data={answer.data} />
        )
      } />;
}
