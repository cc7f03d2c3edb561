-- gcwork.hs: a program that keeps a growing Map live while allocating garbage, so that
-- every run has minor and major collections and copying; used by tests/gc_stats.sh.
import qualified Data.Map.Strict as M
import Data.List (foldl')
import Control.Concurrent
import Control.Monad

step :: M.Map Int [Int] -> Int -> M.Map Int [Int]
step m i = M.insert (i `mod` 20000) [i .. i + (i `mod` 7)] m

main :: IO ()
main = do
  done <- newEmptyMVar
  forM_ [1 :: Int, 2] $ \k -> forkIO $ do
    let m = foldl' step M.empty [k * 1 .. k * 150000]
    print (M.size m, sum (map length (M.elems m)))
    putMVar done ()
  replicateM_ 2 (takeMVar done)
